# Stores the results of the vignette "reproduce-dpcd" that are too slow to
# compute whenever the vignettes are built.
#
# The vignette runs its tuned experiments (about a minute on one core) only
# when DPGLMNET_FULL_VIGNETTES=true; otherwise it reads
# inst/bench/results/reproduce-dpcd.csv. This script writes that file: it
# renders the vignette in full (with the dpglmnet installed in the library
# R finds, which should be built from this source tree) and saves the data
# frame `results` and the time `elapsed` that the vignette's own
# `experiments` chunk computed, with the data each problem read (the loaders'
# description: file and MD5 checksum, or "generated") and the provenance
# (date, commit, R version) in `#` header lines.
#
# Run it from the repository root, with the DP-CD paper's data in
# $DPGLMNET_DATA (or ../shared/data), after any change that moves the
# experiments' numbers:
#   R CMD INSTALL . && Rscript inst/bench/vignette_results.R
# Like the vignette, the experiments tune on the data without privacy: they
# compare methods, they are not a private procedure.
if (!file.exists("vignettes/reproduce-dpcd.Rmd")) {
  stop("run from the repository root: Rscript inst/bench/vignette_results.R")
}
if (!nzchar(Sys.getenv("DPGLMNET_DATA")) && dir.exists("../shared/data")) {
  Sys.setenv(DPGLMNET_DATA = normalizePath("../shared/data"))
}
Sys.setenv(DPGLMNET_FULL_VIGNETTES = "true")
out <- tempfile("vignette-")
dir.create(out)
invisible(file.copy("vignettes/reproduce-dpcd.Rmd", out))
env <- new.env()
rmarkdown::render(file.path(out, "reproduce-dpcd.Rmd"), envir = env, quiet = TRUE)

results <- env$results
numeric <- vapply(results, is.double, TRUE)
results[numeric] <- lapply(results[numeric], signif, 6)
results$data <- vapply(env$problem_list[results$problem], `[[`, "", "data")
# the machine's path to a data file is not part of the record
results$data <- sub("^.*/", "", results$data)
commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE),
                   error = function(e) "unknown", warning = function(w) "unknown")
dirty <- length(tryCatch(system2("git", c("status", "--porcelain", "--untracked-files=no"),
                                 stdout = TRUE), error = function(e) character()))
header <- c(
  "# Output of the `experiments` chunk of vignettes/reproduce-dpcd.Rmd, run in full",
  "# (DPGLMNET_FULL_VIGNETTES=true) by `Rscript inst/bench/vignette_results.R`.",
  "# Non-private tuning (coarse-then-fine, one tuning run per point), then 10 fresh",
  "# runs of the chosen setting; relative error (F(w) - F*) / F* on the training",
  "# objective; `data`: the file each problem read and its MD5 checksum.",
  paste0("# date: ", format(Sys.time(), "%Y-%m-%d")),
  paste0("# commit: ", commit, if (dirty > 0) " (with uncommitted changes)"),
  paste0("# dpglmnet: ", utils::packageVersion("dpglmnet"), ", ", R.version.string),
  paste0("# elapsed_seconds: ", round(as.numeric(env$elapsed, units = "secs"), 1)))
target <- "inst/bench/results/reproduce-dpcd.csv"
writeLines(header, target)
suppressWarnings(utils::write.table(results, target, append = TRUE, sep = ",",
                                    row.names = FALSE, qmethod = "double"))
cat("wrote", target, ":", nrow(results), "rows\n")
writeLines(header)
