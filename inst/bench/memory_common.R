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

# Runs this script again as a child under /usr/bin/time -v with `arguments`
# (after "--child"): list(result = the numbers of its "RESULT ..." line,
# process_MB = its peak resident set size).
run_measured_child <- function(script, arguments) {
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- suppressWarnings(system2("/usr/bin/time", c(
    "-v", rscript, shQuote(script), "--child", arguments), stdout = TRUE, stderr = TRUE))
  result <- grep("^RESULT ", out, value = TRUE)
  max_rss <- grep("Maximum resident set size", out, value = TRUE)
  if (length(result) != 1L || length(max_rss) != 1L) {
    stop("child failed:\n", paste(out, collapse = "\n"))
  }
  list(result = as.numeric(strsplit(result, " ")[[1]][-1]),
       process_MB = round(as.numeric(gsub("[^0-9]", "", max_rss)) / 1024, 1))
}
