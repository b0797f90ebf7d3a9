# Compares two snapshots (tools/snapshot.R) with a numeric tolerance of 1e-10,
# ignoring the ledger columns of issue 17 (key, sensitivity_value,
# sensitivity_length; with a third argument TRUE the sensitivity words too)
# and the settings it removed; reports the largest relative difference.
# usage: Rscript tools/snapshot-compare-tolerance.R BEFORE.rds AFTER.rds [TRUE]
a <- readRDS(commandArgs(TRUE)[1]); b <- readRDS(commandArgs(TRUE)[2])
new_columns <- c("key", "sensitivity_value", "sensitivity_length",
                 if (isTRUE(as.logical(commandArgs(TRUE)[3]))) "sensitivity")
dropped_settings <- c("gumbel_multiplier", "laplace_multiplier")
strip <- function(x) {
  if (is.data.frame(x) && "mechanism" %in% names(x)) return(x[setdiff(names(x), new_columns)])
  if (inherits(x, "dpglmnet_privacy")) { x$sensitivities <- NULL }
  if (is.list(x)) {
    at <- attributes(x)
    if (!is.null(names(x))) {
      x <- x[setdiff(names(x), c("sensitivities", dropped_settings))]
      at$names <- names(x)
    }
    x <- lapply(x, strip)
    attributes(x) <- at
  }
  x
}
numbers <- function(x) {
  if (is(x, "Matrix")) x <- as.matrix(x)
  if (is.numeric(x)) return(as.numeric(x))
  if (is.list(x)) return(unlist(lapply(x, numbers), use.names = FALSE))
  numeric()
}
maxrel <- function(x, y) {
  ux <- numbers(x); uy <- numbers(y)
  if (length(ux) != length(uy)) return(NA)
  ok <- is.finite(ux) & is.finite(uy) & ux != uy
  if (!any(ok)) return(0)
  max(abs(ux[ok] - uy[ok]) / pmax(abs(ux[ok]), abs(uy[ok])))
}
identical_n <- 0; close <- character(); far <- character()
for (nm in names(a)) {
  x <- strip(a[[nm]]); y <- strip(b[[nm]])
  if (identical(x, y)) { identical_n <- identical_n + 1; next }
  eq <- all.equal(x, y, tolerance = 1e-10)
  if (isTRUE(eq)) close <- c(close, sprintf("%s (max rel diff %.3g)", nm, maxrel(x, y)))
  else far <- c(far, paste(nm, paste(head(eq, 3), collapse = " | ")))
}
cat("entries:", length(a), " identical:", identical_n, " within 1e-10:", length(close),
    " beyond:", length(far), "\n")
if (length(close)) cat("within tolerance:", close, sep = "\n  ")
if (length(far)) cat("\nBEYOND tolerance:", far, sep = "\n  ")
# the removed settings, checked against their replacements
