#' dpglmnet: differentially private penalized regression
#'
#' Fits differentially private LASSO, elastic-net, ridge and logistic
#' regression paths with the interface of glmnet. Start with
#' [cv.dpglmnet()] (a private path and a private choice of lambda) or
#' [dpglmnet()] (the path); the accountant is in [gdp_epsilon()]; the ledger
#' every fit carries is described in [print.dpglmnet_privacy()].
#'
#' @keywords internal
#' @docType package
#' @name dpglmnet-package
#' @useDynLib dpglmnet, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom stats coef predict family deviance
NULL
