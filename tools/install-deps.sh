#!/usr/bin/env bash
# Installs what dpglmnet needs to build, test and document itself, and only
# what is missing: R packages through Debian's prebuilt r-cran-* packages
# when running as root on Debian, otherwise install.packages() from the
# repository R is configured with; pandoc (for the vignettes) and the
# PostgreSQL server (for the database tests, tests/testthat/test-database*.R)
# through apt. DuckDB is never installed (its source build takes most of an
# hour here): the tests use it when it is present.
set -euo pipefail

# RcppEigen stays in the project's set-up list, though the package no
# longer links to it (the core uses no Eigen). DBI, RSQLite and
# RPostgreSQL: fits on a database table (R/database.R).
r_packages="Rcpp RcppEigen Matrix glmnet testthat roxygen2 knitr rmarkdown DBI RSQLite RPostgreSQL"

missing_r_packages() {
  Rscript --vanilla -e 'p <- commandArgs(TRUE)
    ok <- vapply(p, function(x) nzchar(system.file(package = x)), logical(1))
    cat(p[!ok])' $r_packages
}

missing=$(missing_r_packages)
need_pandoc=no
command -v pandoc >/dev/null 2>&1 || need_pandoc=yes
need_postgresql=no
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || \
  need_postgresql=yes

if [ -z "$missing" ] && [ "$need_pandoc" = no ] && [ "$need_postgresql" = no ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  debs=""
  for p in $missing; do debs="$debs r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"; done
  [ "$need_pandoc" = yes ] && debs="$debs pandoc"
  [ "$need_postgresql" = yes ] && debs="$debs postgresql"
  echo "install-deps: apt-get install$debs"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Install one by one so a package Debian lacks falls back to CRAN below.
  for d in $debs; do
    apt-get install -y -qq --no-install-recommends "$d" >/dev/null || \
      echo "install-deps: apt could not install $d"
  done
fi

missing=$(missing_r_packages)
if [ -n "$missing" ]; then
  echo "install-deps: install.packages($missing)"
  Rscript --vanilla -e 'p <- commandArgs(TRUE)
    lib <- .libPaths()[1]
    if (file.access(lib, 2) != 0) {
      lib <- Sys.getenv("R_LIBS_USER"); dir.create(lib, recursive = TRUE, showWarnings = FALSE)
      .libPaths(c(lib, .libPaths()))
    }
    install.packages(p, lib = lib)' $missing
fi

missing=$(missing_r_packages)
if [ -n "$missing" ]; then
  echo "install-deps: could not install: $missing" >&2
  exit 1
fi
command -v pandoc >/dev/null 2>&1 || \
  echo "install-deps: pandoc is not installed; vignettes will not build" >&2
echo "install-deps: done"
