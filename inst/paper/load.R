# Loads the paper-reproduction script library of dpglmnet (see README.md in
# this folder): non-private evaluation tools for the vignette
# "reproduce-dpcd" and the benchmarks in inst/bench/.
#
#   source(system.file("paper", "load.R", package = "dpglmnet"))
#
# defines the tools in the environment this file is sourced into: the
# global environment above, a function's with `local = TRUE`, or one of
# your own with
#
#   paper <- new.env()
#   source(system.file("paper", "load.R", package = "dpglmnet"), local = paper)
#   paper$paper_tables()
#
# The scripts are those of the installed package (system.file()), which must
# be installed; it need not be attached.

(function(target) {
  folder <- system.file("paper", package = "dpglmnet", mustWork = TRUE)
  # The few dpglmnet internals the scripts use: the argument checks, so that
  # a bad argument gets the package's error class "dpglmnet_error" and
  # message, and the checks of x and y (in dpglmnet_objective()).
  target$dpglmnet_abort <- dpglmnet:::dpglmnet_abort
  target$check_flag <- dpglmnet:::check_flag
  target$check_choice <- dpglmnet:::check_choice
  target$check_numeric <- dpglmnet:::check_numeric
  target$check_x <- dpglmnet:::check_x
  target$check_y <- dpglmnet:::check_y
  for (script in c("datasets.R", "evaluation.R", "tuning.R", "paper.R")) {
    sys.source(file.path(folder, script), envir = target)
  }
  invisible(NULL)
})(environment())
