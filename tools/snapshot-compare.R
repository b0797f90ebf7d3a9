a <- readRDS(commandArgs(TRUE)[1]); b <- readRDS(commandArgs(TRUE)[2])
cat("identical:", identical(a, b), " entries:", length(a), length(b), "\n")
bad <- names(a)[!mapply(identical, a, b[names(a)])]
if (length(bad)) cat("differ:", bad, sep = "\n  ")
