# Moderate n (issue 16): cv.dpglmnet() at its defaults with a few hundred to
# a few thousand records, before and after the moderate-n rule
# (R/moderate-n.R), beside the l1 rule of solver = "auto" forced (dpfw on
# columns scaled by their public bounds, R/highdim.R).
#
#   Rscript inst/bench/moderate_n.R            # 3 reps / 4 splits
#   Rscript inst/bench/moderate_n.R --quick    # 1 rep / 2 splits, fewer shapes
#   Rscript inst/bench/moderate_n.R --intercept  # n = 400, 700, 1000: the
#     intercept-only fit of solver = "auto" (R/intercept.R): main = the
#     defaults before it (solver = "dpcd" given, which turns it off and is
#     otherwise what "auto" picks here), after = the defaults; `io` counts
#     the fits that were the intercept alone
#
# Columns: crit, the public criterion of R/moderate-n.R at the training
# part's n (0.8 n) and the default share 0.3, crit_n at all n records (what
# a fit on all records reads when the part affords one lambda only and
# cv.dpglmnet() fits all records, the common case here); before = standardize.budget
# 0.3 given (the fit of the defaults before the rule); after = the
# defaults; l1 = "auto"'s high-dimensional rule forced at every p / n (its
# p / n ratio set to 0 inside the package namespace, for this script
# only). Each is the held-out error over that of the trivial model fitted
# on the training records (MSE over the mean's, misclassification over the
# majority's), mean over reps, and max_* the worst rep. "absurd" counts
# fits with |b_j| sd(x_j) > 10 sd(y) (binomial: > 10).
# Generated: x ~ N(0, 1), eta = 1 + x1 - x2 + 0.5 x3; gaussian y = eta +
# N(0, 1), binomial y = 1{eta + logistic noise > 0}; x.bounds = m x
# max|x_j| (m = 3, crude, or 1.2, tight), y.bound 2 max|y|; test set 5000.
# Real: California (gaussian) and Electricity (binomial) from
# $DPGLMNET_DATA or ../shared/data, subsamples of n with 3000 test records,
# x.bounds 2 max|x_ij| and y.bound 2 max|y| of the subsample (as
# inst/bench/trust.R section "real"), cv.glmnet on the clamped subsample
# for reference (r_glmnet: after / cv.glmnet).
suppressPackageStartupMessages(library(dpglmnet))
quick <- "--quick" %in% commandArgs(TRUE)
intercept_mode <- "--intercept" %in% commandArgs(TRUE)
reps <- if (quick) 1L else 3L
splits <- if (quick) 2L else 4L
have_glmnet <- requireNamespace("glmnet", quietly = TRUE)
ns <- asNamespace("dpglmnet")
rule <- get("highdim_rule_constants", ns)
set_ratio <- function(ratio) {
  k <- rule
  k$ratio <- ratio
  unlockBinding("highdim_rule_constants", ns)
  assign("highdim_rule_constants", k, envir = ns)
  lockBinding("highdim_rule_constants", ns)
}
on.exit(set_ratio(rule$ratio))
variants <- list(before = list(ratio = rule$ratio, args = list(standardize.budget = 0.3)),
                 after = list(ratio = rule$ratio, args = list()),
                 l1 = list(ratio = 0, args = list()))
if (intercept_mode) {
  variants <- list(main = list(ratio = rule$ratio, args = list(solver = "dpcd")),
                   after = list(ratio = rule$ratio, args = list()))
}

test_error <- function(family, link, y) {
  if (family == "gaussian") mean((y - link)^2) else mean((link > 0) != (y > 0.5))
}
clamp <- function(x, b) pmin(pmax(x, rep(-b, each = nrow(x))), rep(b, each = nrow(x)))

# One training set: each variant's error over the trivial model's.
evaluate <- function(x, y, xt, yt, xb, yb, family, epsilon, seed) {
  trivial <- if (family == "gaussian") mean((yt - mean(y))^2) else
    mean(yt != as.numeric(mean(y) > 0.5))
  out <- sapply(variants, function(v) {
    set_ratio(v$ratio)
    set.seed(seed)
    fit <- suppressWarnings(do.call(cv.dpglmnet, c(list(
      x, y, family = family, epsilon = epsilon, x.bounds = xb, y.bound = yb), v$args)))
    set_ratio(rule$ratio)
    link <- predict(fit, clamp(xt, xb), s = "lambda.min", type = "link")
    b <- as.matrix(coef(fit, s = "lambda.min"))[-1, 1]
    scale <- if (family == "gaussian") stats::sd(y) else 1
    c(r = test_error(family, link, yt) / trivial,
      absurd = max(abs(b) * apply(x, 2, stats::sd)) > 10 * scale,
      io = isTRUE(fit$dpglmnet.fit$settings$intercept_only))
  })
  reference <- NA_real_
  if (have_glmnet) {
    g <- glmnet::cv.glmnet(clamp(x, xb), y, family = family)
    reference <- test_error(family, predict(g, clamp(xt, xb), s = "lambda.min"), yt) / trivial
  }
  list(r = out["r", ], absurd = sum(out["absurd", ]), io = sum(out["io", ]),
       glmnet = reference)
}

criterion <- function(n, p, epsilon, family, train = n - round(0.2 * n)) {
  ns$moderate_n_criterion(train, p, epsilon, 1 / n^2, family == "gaussian",
                          ns$moderate_n_constants$budget)
}

summarise <- function(results, head) {
  r <- sapply(results, `[[`, "r")
  g <- sapply(results, `[[`, "glmnet")
  c(head, setNames(as.list(rowMeans(r)), rownames(r)),
    setNames(as.list(apply(r, 1, max)), paste0("max_", rownames(r))),
    absurd = sum(sapply(results, `[[`, "absurd")),
    io = sum(sapply(results, `[[`, "io")),
    r_glmnet = mean(r["after", ]) / mean(g))
}

print_rows <- function(rows, title) {
  cat("\n", title, "\n", sep = "")
  table <- do.call(rbind, lapply(rows, as.data.frame))
  numeric <- vapply(table, is.numeric, logical(1))
  table[numeric] <- lapply(table[numeric], function(v) round(v, 3))
  print(table, row.names = FALSE)
  invisible(table)
}

# --intercept: by crit_n (the criterion at all n records, which decides:
# cv.dpglmnet() fits all records when the part affords one lambda), the
# rows where after differs from main at all, and the worst ratios.
intercept_summary <- function(table, title) {
  table$crit_n_band <- ifelse(table$crit_n >= 1.5, "crit_n >= 1.5", "crit_n < 1.5")
  table$changed <- abs(table$after - table$main) > 1e-12 |
    abs(table$max_after - table$max_main) > 1e-12
  cat(sprintf("\n%s, by crit_n: rows, rows changed, mean and worst of main / after\n",
              title))
  print(do.call(rbind, lapply(split(table, table$crit_n_band), function(t) data.frame(
    band = t$crit_n_band[1], rows = nrow(t), changed = sum(t$changed),
    intercept_fits = sum(t$io), main = round(mean(t$main), 3),
    after = round(mean(t$after), 3), max_main = round(max(t$max_main), 3),
    max_after = round(max(t$max_after), 3)))), row.names = FALSE)
}

# ------------------------------------------------------------ generated
generated <- function(n, p, family, bound_multiple) {
  N <- n + 5000
  x <- matrix(stats::rnorm(N * p), N, p)
  eta <- 1 + drop(x %*% c(1, -1, 0.5, rep(0, p - 3)))
  y <- if (family == "gaussian") eta + stats::rnorm(N) else
    as.numeric(eta + stats::rlogis(N) > 0)
  train <- seq_len(n)
  list(x = x[train, ], y = y[train], xt = x[-train, ], yt = y[-train],
       xb = bound_multiple * apply(abs(x[train, , drop = FALSE]), 2, max),
       yb = if (family == "gaussian") 2 * max(abs(y[train])))
}
shapes <- expand.grid(n = if (quick) c(400, 1000, 2000) else if (intercept_mode)
                        c(400, 700, 1000) else c(400, 700, 1000, 1500, 2000, 3000),
                      p = if (quick) c(3, 10) else c(3, 10, 30),
                      epsilon = if (quick) 1 else c(0.5, 1, 2), bound = c(3, 1.2),
                      family = c("gaussian", "binomial"), stringsAsFactors = FALSE)
rows <- list()
for (k in seq_len(nrow(shapes))) {
  s <- shapes[k, ]
  results <- lapply(seq_len(reps), function(rep) {
    set.seed(1000 * rep + s$n + s$p)
    d <- generated(s$n, s$p, s$family, s$bound)
    evaluate(d$x, d$y, d$xt, d$yt, d$xb, d$yb, s$family, s$epsilon, rep)
  })
  rows[[k]] <- summarise(results, list(family = s$family, bound = s$bound,
                                       eps = s$epsilon, p = s$p, n = s$n,
                                       crit = criterion(s$n, s$p, s$epsilon, s$family),
                                       crit_n = criterion(s$n, s$p, s$epsilon, s$family,
                                                          s$n)))
}
gen <- print_rows(rows, sprintf("Generated designs (%d reps)", reps))
gen$band <- cut(gen$crit, c(0, 0.75, 1, 1.5, 2, 3, Inf), right = FALSE)
cat("\nGenerated, by band of crit of the training part (means; max_ the worst rep)\n")
compared <- if (intercept_mode) "cbind(main, after)" else "cbind(before, after, l1)"
agg <- function(f) stats::aggregate(stats::as.formula(paste(compared, "~ band + family")),
                                    gen, f)
by_band <- merge(agg(mean), agg(max), by = c("band", "family"), suffixes = c("", "_max"))
by_band[-(1:2)] <- lapply(by_band[-(1:2)], round, 3)
print(by_band[order(by_band$family, by_band$band), ], row.names = FALSE)
if (intercept_mode) intercept_summary(gen, "Generated")

# ------------------------------------------------------------ real
data_dir <- Sys.getenv("DPGLMNET_DATA", "../shared/data")
paper <- new.env()
loaded <- tryCatch({
  source(system.file("paper", "load.R", package = "dpglmnet"), local = paper)
  ca <- paper$load_california(data_dir)
  el <- paper$load_electricity(data_dir)
  list(california = list(x = unname(as.matrix(ca$x)), y = ca$y, family = "gaussian"),
       electricity = list(x = unname(as.matrix(el$x)),
                          y = as.numeric(el$y == levels(el$y)[2]), family = "binomial"))
}, error = function(e) {
  cat("\nReal data skipped: ", conditionMessage(e), "\n")
  NULL
})
if (!is.null(loaded)) {
  rows <- list()
  for (name in names(loaded)) {
    d <- loaded[[name]]
    for (epsilon in if (quick) 1 else c(0.5, 1, 2)) {
      for (n in if (quick) c(400, 1000, 3000) else if (intercept_mode) c(400, 700, 1000)
                else c(400, 700, 1000, 1500, 2000, 3000, 5000)) {
        results <- lapply(seq_len(splits), function(split) {
          set.seed(split)
          i <- sample.int(nrow(d$x), n + 3000)
          train <- i[seq_len(n)]
          test <- i[-seq_len(n)]
          xb <- 2 * apply(abs(d$x[train, ]), 2, max)
          yb <- if (d$family == "gaussian") 2 * max(abs(d$y[train]))
          evaluate(d$x[train, ], d$y[train], d$x[test, ], d$y[test], xb, yb, d$family,
                   epsilon, split)
        })
        rows[[length(rows) + 1L]] <- summarise(results, list(
          data = name, eps = epsilon, n = n,
          crit = criterion(n, ncol(d$x), epsilon, d$family),
          crit_n = criterion(n, ncol(d$x), epsilon, d$family, n)))
      }
    }
  }
  real <- print_rows(rows, sprintf("Real subsamples (%d splits)", splits))
  if (intercept_mode) intercept_summary(real, "Real")
}
