# The default loss bound B of cv.dpglmnet()'s gaussian validation curve
# (R/cv-curve.R: default_loss_bound(), curve_budget_bound()), measured by
# simulation on real paths.
#
# For each fit (inst/bench/real_sets.R's gaussian sets and splits, its
# crude bounds, cv.dpglmnet() at its defaults), the script computes the
# noiseless clipped validation curve of the released path at B times
# 2^(10:-3) (it reads the validation records without privacy: a
# benchmark, not a private procedure) and the test error of each lambda.
# It then draws the curve's Gaussian noise 300 times at each rule's B
# (the noise sd is proportional to B: cvsd.noise / loss.bound per unit)
# and reports the expected test error of the chosen lambda, against the
# rule of the fit itself:
#   oracle   the best lambda of the path (no noise, no clip);
#   unclip   B 1024 times the fit's (about no clip, with its noise);
#   share_f  B raised until the noise sd is f times (s s_y)^2 (s: the
#            path's last released residual scale), never below the
#            residual rule's (6 s s_y)^2 (curve_noise_share = 0.01 is the
#            package's; the cap at twice y's released reach is left out).
# Each rule's B is rounded to the nearest point of the grid (up to a factor
# sqrt(2) off), and each rule draws its own noise (no common random
# numbers; the Monte Carlo error is about 0.1%, under the 1% reported).
# `--only` is ignored with `--wooldridge`.
# Since the package's own rule now raises B, run this with a build of the
# package whose curve_noise_share is 0 to measure against the residual rule
# alone (R -e 'assignInNamespace(...)' does not reach Rscript; edit
# R/cv-curve.R), or read the share_f columns as changes from the package's.
#
#   Rscript inst/bench/cv_loss_bound.R --eps 4,10,100 --extra --more --new \
#     --others --sweep5 --sweep6 --seeds 2
#   Rscript inst/bench/cv_loss_bound.R --eps 1000,10000 --wooldridge
#       # 13 sets of the wooldridge package (not tuned on), if installed
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)
args <- commandArgs(TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source_lines <- readLines(file.path(here, "real_sets.R"))
# real_sets.R's loaders and options, not its loop
eval(parse(text = source_lines[seq_len(grep("^test_error <- function", source_lines)[1] - 1L)]))
epsilons <- if (any(args == "--eps")) {
  as.numeric(strsplit(args[which(args == "--eps") + 1L], ",")[[1]])
} else c(4, 10, 100)
if ("--wooldridge" %in% args) {
  wl <- function(name) as.data.frame(dataset("wooldridge", name))
  wooldridge <- function(name, predictors, response) {
    function() {
      if (!have("wooldridge")) return(NULL)
      d <- wl(name)
      list(x = d[predictors], y = d[[response]], family = "gaussian")
    }
  }
  loaders <- list(
    countymurders = wooldridge("countymurders", c("year", "execs", "popul", "perc1019",
      "perc2029", "percblack", "percmale", "rpcincmaint", "rpcpersinc", "rpcunemins"),
      "murders"),
    airfare = wooldridge("airfare", c("year", "dist", "passen", "bmktshr", "concen"), "lfare"),
    airfare_fare = wooldridge("airfare", c("year", "dist", "passen", "bmktshr", "concen"),
                              "fare"),
    census2000 = wooldridge("census2000", c("exper", "educ", "state"), "lweekinc"),
    school93 = wooldridge("school93_98", c("lunch", "enrol", "exppp", "rexpp", "lenrol"),
                          "math4"),
    labsup = wooldridge("labsup", c("kids", "educ", "age", "black", "hispan", "nonmomi",
                                    "samesex", "multi2nd"), "hours"),
    k401k_nettfa = wooldridge("k401ksubs", c("e401k", "inc", "marr", "male", "age", "fsize"),
                              "nettfa"),
    catholic = wooldridge("catholic", c("read12", "female", "asian", "hispan", "black",
                                        "motheduc", "fatheduc", "lfaminc", "cathhs",
                                        "parcath"), "math12"),
    charity_gift = wooldridge("charity", c("resplast", "weekslast", "propresp",
                                           "mailsyear", "giftlast", "avggift"), "gift"),
    cps91_hours = wooldridge("cps91", c("husage", "husunion", "husearns", "huseduc",
                                        "husblck", "hushisp", "hushrs", "kidge6", "age",
                                        "black", "educ", "hispanic", "kidlt6", "nwifeinc"),
                             "hours"),
    injury = wooldridge("injury", c("afchnge", "highearn", "male", "married", "hosp",
                                    "indust", "injtype", "age", "prewage", "totmed",
                                    "benefit", "ky"), "ldurat"),
    twoyear = wooldridge("twoyear", c("female", "phsrank", "BA", "AA", "black", "hispanic",
                                      "exper", "jc", "univ", "stotal", "smcity", "medcity",
                                      "submed", "lgcity", "sublg", "vlgcity", "subvlg", "ne",
                                      "nc", "south"), "lwage"),
    gpa2 = wooldridge("gpa2", c("sat", "tothrs", "athlete", "verbmath", "hsize", "hsrank",
                                "hsperc", "female", "white", "black"), "colgpa"))
}
if (!requireNamespace("glmnet", quietly = TRUE)) stop("this benchmark needs glmnet")
test_error <- function(link, y) mean((y - link)^2)
multiples <- 2^(10:-3)
family <- dpglmnet:::dpglmnet_family("gaussian")

# 1. The fits and their noiseless clipped curves.
fits <- list()
for (name in names(loaders)) {
  d <- loaders[[name]]()
  if (is.null(d) || d$family != "gaussian") next
  # (real_sets.R's preparation, clamp_frame() and mm())
  d <- prepared_set(d)
  n <- d$n
  x.bounds <- d$x.bounds
  y.bound <- d$y.bound
  for (split in seq_len(splits)) {
    set.seed(3000 + split)
    train <- sort(sample.int(n, round(0.8 * n)))
    test <- setdiff(seq_len(n), train)
    xt <- d$x[train, , drop = FALSE]
    yt <- d$y[train]
    reference <- glmnet::cv.glmnet(mm(clamp_frame(xt, x.bounds)),
                                   pmin(pmax(yt, -y.bound), y.bound))
    reference <- test_error(drop(predict(reference, mm(clamp_frame(d$x[test, , drop = FALSE],
                                                                    x.bounds)),
                                         s = "lambda.min")), d$y[test])
    for (epsilon in epsilons) for (draw in seq_len(seeds)) {
      set.seed(1000L * (draw - 1L) + split)
      cvfit <- tryCatch(suppressWarnings(cv.dpglmnet(xt, yt, epsilon = epsilon,
                                                     x.bounds = x.bounds, y.bound = y.bound)),
                        error = function(e) NULL)
      if (is.null(cvfit) || length(cvfit$lambda) < 2L || !isTRUE(cvfit$cvsd.noise > 0)) next
      fit <- cvfit$dpglmnet.fit
      scale <- fit$settings$adaptive_clip_scale$released
      if (!length(scale)) next
      v <- cvfit$validation
      loss <- apply(predict(fit, xt[v, , drop = FALSE], type = "link"), 2, function(link) {
        dpglmnet:::validation_loss("mse", family, link, pmin(pmax(yt[v], -y.bound), y.bound))
      })
      B <- cvfit$loss.bound
      fits[[length(fits) + 1L]] <- list(
        data = name, epsilon = epsilon, reference = reference, B = B,
        ratio = cvfit$cvsd.noise / B, s = max(scale[length(scale)], 0.005),
        y_sd = fit$settings$standardization$y_sd,
        errors = apply(predict(fit, d$x[test, , drop = FALSE], type = "link"), 2,
                       test_error, y = d$y[test]),
        curves = t(vapply(multiples, function(m) colMeans(pmin(loss, B * m)),
                          numeric(ncol(loss)))))
    }
  }
  cat(sprintf("%s: %d fits with a curve so far\n", name, length(fits)))
}

# 2. The rules, by simulation of the curve's noise.
set.seed(7)
draws <- 300
expected_error <- function(f, B) {
  k <- which.min(abs(log(multiples * f$B / B)))
  m <- multiples[k]
  curve <- f$curves[k, ]
  chosen <- replicate(draws, which.min(pmin(pmax(
    curve + stats::rnorm(length(curve), 0, f$ratio * f$B * m), 0), f$B * m)))
  mean(f$errors[chosen])
}
shares <- c(0.003, 0.01, 0.03, 0.1)
table <- do.call(rbind, lapply(fits, function(f) {
  residual_rule <- (min(2, 6 * f$s) * f$y_sd)^2
  rules <- c(fit = f$B, unclip = f$B * 1024,
             stats::setNames(pmax(residual_rule, shares * (f$s * f$y_sd)^2 / f$ratio),
                             paste0("share_", shares)))
  errors <- vapply(rules, function(B) expected_error(f, B), numeric(1))
  data.frame(data = f$data, epsilon = f$epsilon, oracle = min(f$errors) / f$reference,
             t(errors / f$reference))
}))
rules <- setdiff(names(table), c("data", "epsilon"))
cat("\nMean log ratio of the expected test MSE to the fit's own rule, by epsilon:\n")
print(round(sapply(split(table, table$epsilon), function(t) {
  colMeans(log(t[rules] / t$fit))
}), 4))
cat("\nFits changed by more than 1% (better / worse), by epsilon:\n")
for (rule in grep("^share_", rules, value = TRUE)) {
  cat(sprintf("  %-12s %s\n", rule, paste(vapply(split(table, table$epsilon), function(t) {
    r <- log(t[[rule]] / t$fit)
    sprintf("%g: %d / %d", t$epsilon[1], sum(r < -0.01), sum(r > 0.01))
  }, character(1)), collapse = "   ")))
}
cat("\nExpected test MSE over cv.glmnet's, mean per set and epsilon:\n")
means <- stats::aggregate(table[rules], list(data = table$data, epsilon = table$epsilon), mean)
print(format(means[order(means$data, means$epsilon), ], digits = 3), row.names = FALSE)
