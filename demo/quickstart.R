# A differentially private LASSO on generated data, at the defaults: the
# private counterpart of cv.glmnet, checked on held-out records.
library(dpglmnet)
set.seed(2022)
n <- 10000
p <- 8
x <- matrix(rnorm(n * p), n, p) %*% diag(c(20, 1, 1, 1, 5, 1, 1, 0.1)) + 3
colnames(x) <- paste0("x", 1:p)
y <- drop(x %*% c(0.05, 1, -1, 0.5, 0, 0, 0, 0)) + rnorm(n)
train <- 1:8000
test <- 8001:10000

# What is public: bounds on each |x_ij| and on |y_i| (records are clamped to
# them) and the budget. Everything else is chosen privately: standardization,
# the lambda path, the choice of lambda on a held-out part of the records.
bounds <- c(200, 10, 10, 10, 50, 10, 10, 1)
cvfit <- cv.dpglmnet(x[train, ], y[train], epsilon = 1, x.bounds = bounds,
                     y.bound = 30)
print(cvfit)
print(cvfit$privacy)
coef(cvfit)   # at lambda.1se of the private curve: x1 to x4 carry the signal

mse <- function(prediction) mean((y[test] - prediction)^2)
cat("\nHeld-out MSE, private (epsilon = 1):",
    round(mse(predict(cvfit, x[test, ])), 3), "\n")
if (requireNamespace("glmnet", quietly = TRUE)) {
  reference <- glmnet::cv.glmnet(x[train, ], y[train])
  cat("Held-out MSE, cv.glmnet (not private):",
      round(mse(predict(reference, x[test, ], s = "lambda.min")), 3), "\n")
}
cat("Held-out MSE, predicting the mean:", round(mse(mean(y[train])), 3), "\n")
