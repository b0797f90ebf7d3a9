# src/Makevars and src/Makevars.win list the headers by hand ($(wildcard) is
# a GNU make extension): a header missing from the list is not a dependency,
# so editing it rebuilds nothing, and a listed header that no longer exists
# breaks the build. Read from the source tree; skipped on an installed
# package without it (R CMD check's tests).
source_dir <- testthat::test_path("..", "..", "src")

makevars_headers <- function(file) {
  words <- scan(file, what = "", quiet = TRUE, comment.char = "#")
  words <- sub(":$", "", words)
  sort(unique(grep("\\.h$", words, value = TRUE)))
}

test_that("Makevars and Makevars.win list every header under src/, and only those", {
  skip_if_not(file.exists(file.path(source_dir, "Makevars")) &&
                dir.exists(file.path(source_dir, "dpglmnet")),
              "the package source tree (src/) is not available")
  # (recursive: the losses/ and penalties/ headers too)
  on_disk <- sort(c(list.files(source_dir, pattern = "\\.h$"),
                    file.path("dpglmnet", list.files(file.path(source_dir, "dpglmnet"),
                                                     pattern = "\\.h$", recursive = TRUE))))
  expect_gt(length(on_disk), 20)
  for (name in c("Makevars", "Makevars.win")) {
    listed <- makevars_headers(file.path(source_dir, name))
    expect_identical(setdiff(on_disk, listed), character(0),
                     label = paste("headers missing from", name))
    expect_identical(setdiff(listed, on_disk), character(0),
                     label = paste("headers listed in", name, "that do not exist"))
  }
})
