# Shared by inst/bench/memory.R and inst/bench/cv_memory.R: the peak
# memory read from /proc and the generated data both measure.

# /proc/self/status fields in kB (NA where there is no /proc).
proc_kb <- function(field) {
  line <- tryCatch(grep(paste0("^", field, ":"), readLines("/proc/self/status"),
                        value = TRUE), error = function(e) character(0))
  if (length(line) == 0L) return(NA_real_)
  as.numeric(gsub("[^0-9]", "", line))
}

# x with values 2 * N(0, 1) (a recycled block, so that building it costs one
# allocation of x), and a response.
make_data <- function(storage, n, p) {
  values <- 2 * stats::rnorm(1e6 + 7)
  if (storage == "dense") {
    x <- rep_len(values, n * p)
    dim(x) <- c(n, p)
  } else {
    per_column <- n %/% 10L
    rows <- rep.int(seq.int(0L, by = 10L, length.out = per_column), p) +
      rep(seq_len(p) %% 10L, each = per_column)
    # Matrix's class without attaching Matrix (4 s and 150 MB here).
    dgc <- methods::getClass("dgCMatrix", where = asNamespace("Matrix"))
    x <- methods::new(dgc, i = rows, x = rep_len(values, length(rows)),
                      p = seq.int(0L, by = per_column, length.out = p + 1L),
                      Dim = c(as.integer(n), as.integer(p)))
  }
  y <- 0.5 * x[, 1] - 0.25 * x[, 2] + stats::rnorm(n)
  list(x = x, y = y)
}
