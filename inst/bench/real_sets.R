# Real data beyond the DP-CD paper's two sets: cv.dpglmnet() at its
# defaults against cv.glmnet and the trivial model, held out, on public
# datasets that ship with CRAN packages (ISLR2, mlbench, AmesHousing; each
# set is skipped with a message when its package is not installed), so
# that the defaults are judged on data they were not tuned on.
#
#   Rscript inst/bench/real_sets.R            # 3 random 80/20 splits, epsilon 0.5, 1, 2
#   Rscript inst/bench/real_sets.R --quick    # 2 splits, epsilon 1
#   Rscript inst/bench/real_sets.R --only Default,Caravan
#   Rscript inst/bench/real_sets.R --seeds 3  # 3 noise draws per split (9 fits a row)
#   Rscript inst/bench/real_sets.R --extra    # and the sets of `extra_loaders`
#   Rscript inst/bench/real_sets.R --more     # and the modeldata sets (`more_loaders`)
#   Rscript inst/bench/real_sets.R --new      # and the sets of `new_loaders` (session 22)
#   Rscript inst/bench/real_sets.R --others   # and the sets of `other_loaders` (session 23)
#   Rscript inst/bench/real_sets.R --sweep5   # and the sets of `sweep5_loaders` (session 27)
#   Rscript inst/bench/real_sets.R --sweep6   # and the sets of `sweep6_loaders` (session 28)
#   Rscript inst/bench/real_sets.R --sweep7   # and the sets of `sweep7_loaders` (session 29)
#
# `--extra` adds larger sets from dplyr and ggplot2 (storms, diamonds and
# its price > 10000, txhousing: n = 7000-54000, high R^2, factor-heavy or
# nearly separable) that later sessions measured as data the defaults were
# not tuned on; they take about as long again as the default sets.
#
# Each set is given as a statistician would: a data frame of predictors
# (factors kept as factors: dpglmnet expands them as model.matrix() does,
# their dummies bounded by [0, 1] without being asked), the crude public
# bounds 2 x max |x_j| for every numeric column and, for a gaussian
# response, y.bound = 2 max |y| (as inst/bench/trust.R section "real").
# cv.glmnet (lambda.min) is fitted on model.matrix() of the same training
# records, clamped to the same bounds, and the trivial model is the
# training mean / majority class. Errors: test MSE (gaussian),
# misclassification (binomial). Columns: r_glmnet = mean dpglmnet error /
# mean cv.glmnet error; r_trivial (and its worst split) = dpglmnet error /
# trivial error; absurd = fits with a coefficient times its column's sd
# above 10 sd(y) (binomial: 10). Targets (issue 16): r_glmnet <= 1.15 at epsilon 1 for
# n >= 5000; r_trivial_max <= 1.05 at epsilon >= 0.5, n >= 400.
# DPpack (when installed) at the same epsilon and bounds, on the same
# model.matrix() columns (its dummies bounded by [0, 1]): DPpack = l2
# objective perturbation with gamma = 1 (as trust.R), DPpack_tuned = its
# own private tuning (tune_classification_model() /
# tune_linear_regression_model()) over gamma in 10^(-4:0). The
# script reads the data without privacy to score the fits (it is a
# benchmark, not a private procedure).
suppressPackageStartupMessages(library(dpglmnet))
args <- commandArgs(TRUE)
quick <- "--quick" %in% args
only <- if (any(args == "--only")) strsplit(args[which(args == "--only") + 1L], ",")[[1]]
splits <- if (quick) 2L else 3L
epsilons <- if (quick) 1 else c(0.5, 1, 2)
# Noise draws per split: on data without signal one draw per split decides
# little (Weekly at epsilon 2 was 1.15 on 3 fits and 1.015 on 9; session
# 15's record), so a verdict on such rows wants --seeds 3. Draw r of split s
# is seeded 1000 (r - 1) + s (r = 1: the bench's single draw, unchanged).
seeds <- if (any(args == "--seeds")) as.integer(args[which(args == "--seeds") + 1L]) else 1L
have_glmnet <- requireNamespace("glmnet", quietly = TRUE)
have_dppack <- requireNamespace("DPpack", quietly = TRUE)
if (!have_dppack) cat("DPpack is not installed: its columns are NA.\n")

have <- function(pkg) requireNamespace(pkg, quietly = TRUE)
dataset <- function(pkg, name) {
  e <- new.env()
  utils::data(list = name, package = pkg, envir = e)
  e[[name]]
}
# Each loader returns list(x = data frame of predictors, y, family), or NULL.
loaders <- list(
  Default = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Default")
    list(x = d[c("student", "balance", "income")], y = as.numeric(d$default == "Yes"),
         family = "binomial")
  },
  Caravan = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Caravan")
    list(x = d[setdiff(names(d), "Purchase")], y = as.numeric(d$Purchase == "Yes"),
         family = "binomial")
  },
  Bikeshare = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Bikeshare")
    d$mnth <- factor(d$mnth, ordered = FALSE)
    d$hr <- factor(d$hr, ordered = FALSE)
    d$weathersit <- factor(d$weathersit, ordered = FALSE)
    keep <- c("season", "mnth", "day", "hr", "holiday", "weekday", "workingday",
              "weathersit", "temp", "atemp", "hum", "windspeed")
    list(x = d[keep], y = as.numeric(d$bikers), family = "gaussian")
  },
  Wage = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Wage")
    keep <- c("year", "age", "maritl", "race", "education", "jobclass", "health",
              "health_ins")
    x <- d[keep]
    for (v in names(x)) if (is.factor(x[[v]])) x[[v]] <- droplevels(factor(x[[v]], ordered = FALSE))
    list(x = x, y = d$wage, family = "gaussian")
  },
  Satellite = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "Satellite")
    list(x = d[setdiff(names(d), "classes")],
         y = as.numeric(d$classes == "red soil"), family = "binomial")
  },
  Letter = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "LetterRecognition")
    list(x = d[setdiff(names(d), "lettr")],
         y = as.numeric(d$lettr %in% c("A", "E", "I", "O", "U")), family = "binomial")
  },
  Shuttle = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "Shuttle")
    list(x = d[setdiff(names(d), "Class")], y = as.numeric(d$Class == "Rad.Flow"),
         family = "binomial")
  },
  DNA = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "DNA")
    x <- d[setdiff(names(d), "Class")]
    for (v in names(x)) x[[v]] <- factor(x[[v]])
    list(x = x, y = as.numeric(d$Class == "n"), family = "binomial")
  },
  BostonHousing = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "BostonHousing")
    list(x = d[setdiff(names(d), "medv")], y = d$medv, family = "gaussian")
  },
  BreastCancer = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "BreastCancer")
    x <- d[setdiff(names(d), c("Id", "Class"))]
    for (v in names(x)) x[[v]] <- as.numeric(as.character(x[[v]]))
    list(x = x, y = as.numeric(d$Class == "malignant"), family = "binomial")
  },
  Ames = function() {
    if (!have("AmesHousing")) return(NULL)
    d <- as.data.frame(AmesHousing::make_ames())
    x <- d[setdiff(names(d), c("Sale_Price", "Longitude", "Latitude"))]
    for (v in names(x)) {
      if (is.factor(x[[v]])) x[[v]] <- droplevels(factor(x[[v]], ordered = FALSE))
    }
    list(x = x, y = log(d$Sale_Price), family = "gaussian")
  },
  # Smaller sets (n = 400-1250), for the target at n >= 400: two with no
  # linear signal at all (Smarket, Weekly: cv.glmnet is the trivial
  # model), where any noise in the coefficients costs accuracy
  Smarket = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Smarket")
    list(x = d[c("Lag1", "Lag2", "Lag3", "Lag4", "Lag5", "Volume")],
         y = as.numeric(d$Direction == "Up"), family = "binomial")
  },
  Weekly = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Weekly")
    list(x = d[c("Lag1", "Lag2", "Lag3", "Lag4", "Lag5", "Volume")],
         y = as.numeric(d$Direction == "Up"), family = "binomial")
  },
  OJ = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "OJ")
    d$StoreID <- factor(d$StoreID)
    list(x = d[setdiff(names(d), c("Purchase", "STORE", "Store7"))],
         y = as.numeric(d$Purchase == "MM"), family = "binomial")
  },
  College = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "College")
    list(x = d[setdiff(names(d), c("Apps", "Accept", "Enroll"))], y = log(d$Apps),
         family = "gaussian")
  },
  Carseats = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Carseats")
    list(x = d[setdiff(names(d), "Sales")], y = d$Sales, family = "gaussian")
  },
  Vehicle = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "Vehicle")
    list(x = d[setdiff(names(d), "Class")], y = as.numeric(d$Class == "van"),
         family = "binomial")
  },
  Vowel = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "Vowel")
    list(x = d[setdiff(names(d), c("Class", "V1"))],
         y = as.numeric(d$Class %in% c("hid", "hId")), family = "binomial")
  }
)
extra_loaders <- list(
  storms = function() {
    if (!have("dplyr")) return(NULL)
    d <- as.data.frame(dplyr::storms)
    keep <- c("pressure", "lat", "long", "month", "status", "year")
    d <- d[stats::complete.cases(d[c("wind", keep)]), ]
    d$status <- factor(d$status)
    list(x = d[keep], y = as.numeric(d$wind), family = "gaussian")
  },
  diamonds = function() {
    if (!have("ggplot2")) return(NULL)
    d <- diamonds_frame()
    list(x = d$x, y = log(d$price), family = "gaussian")
  },
  diamondsHi = function() {
    if (!have("ggplot2")) return(NULL)
    d <- diamonds_frame()
    list(x = d$x, y = as.numeric(d$price > 10000), family = "binomial")
  },
  txhousing = function() {
    if (!have("ggplot2")) return(NULL)
    d <- as.data.frame(ggplot2::txhousing)
    d <- d[stats::complete.cases(d), ]
    d$city <- factor(d$city)
    list(x = d[c("city", "year", "month", "listings", "inventory")], y = log(d$sales),
         family = "gaussian")
  }
)
# `--more`: sets of the modeldata package (n = 1000-15000: churn, credit
# and loan defaults, delivery times, hotel prices, salaries; many factors,
# rare classes), first measured in session 20 as data the defaults were
# not tuned on.
modeldata_frame <- function(name) as.data.frame(dataset("modeldata", name))
modeldata_set <- function(name, response, family, drop = character(),
                          transform = function(y) y) {
  function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame(name)
    list(x = d[setdiff(names(d), c(response, drop))], y = transform(d[[response]]),
         family = family)
  }
}
more_loaders <- list(
  lending = modeldata_set("lending_club", "Class", "binomial",
                          transform = function(y) as.numeric(y == "bad")),
  wachurn = modeldata_set("wa_churn", "churn", "binomial",
                          transform = function(y) as.numeric(y == "Yes")),
  mlcchurn = modeldata_set("mlc_churn", "churn", "binomial",
                           transform = function(y) as.numeric(y == "yes")),
  credit = modeldata_set("credit_data", "Status", "binomial",
                         transform = function(y) as.numeric(y == "bad")),
  taxi = modeldata_set("taxi", "tip", "binomial",
                       transform = function(y) as.numeric(y == "yes")),
  cells = modeldata_set("cells", "class", "binomial", drop = "case",
                        transform = function(y) as.numeric(y == "PS")),
  concrete = modeldata_set("concrete", "compressive_strength", "gaussian"),
  hotel = modeldata_set("hotel_rates", "avg_price_per_room", "gaussian",
                        drop = c("arrival_date", "agent", "company")),
  deliveries = modeldata_set("deliveries", "time_to_delivery", "gaussian"),
  salary = modeldata_set("stackoverflow", "Salary", "gaussian")
)
# `--new`: sets first measured in session 22 (modeldata; n = 800-5700):
# 0/1 columns given as numbers (car_prices), a log price with a crude
# bound (car_prices, Sacramento), 48 correlated lagged ridership columns
# (Chicago), many factors (attrition, ames: modeldata's copy of
# AmesHousing), a rare class (hpc's "VF" jobs).
new_loaders <- list(
  car_prices = modeldata_set("car_prices", "Price", "gaussian", transform = log),
  Sacramento = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("Sacramento")
    d$city <- factor(d$city)
    list(x = d[c("city", "beds", "baths", "sqft", "type")], y = log(d$price),
         family = "gaussian")
  },
  Chicago = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("Chicago")
    d <- d[stats::complete.cases(d), ]
    list(x = d[setdiff(names(d), c("ridership", "date"))], y = d$ridership,
         family = "gaussian")
  },
  attrition = modeldata_set("attrition", "Attrition", "binomial",
                            transform = function(y) as.numeric(y == "Yes")),
  hpc = modeldata_set("hpc_data", "class", "binomial",
                      transform = function(y) as.numeric(y == "VF")),
  amesmd = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("ames")
    x <- d[setdiff(names(d), c("Sale_Price", "Longitude", "Latitude"))]
    for (v in names(x)) {
      if (is.factor(x[[v]])) x[[v]] <- droplevels(factor(x[[v]], ordered = FALSE))
    }
    list(x = x, y = log(d$Sale_Price), family = "gaussian")
  }
)
# `--others`: sets first measured in session 23, from the recommended
# packages that ship with R (nlme, survival, MASS, datasets) and from
# ISLR2, mlbench, ggplot2 and modeldata: school and clinical data with
# factors (MathAch, nlschools, flchain, nwtco, colon), n = 400-800 (Credit,
# Pima, midwest, biomass, economics, biopsy: the Wisconsin data again, as
# MASS has it), two columns (two_class_dat), p > n (pd_speech: 252
# records, 751 columns) and diamonds' raw price (n = 53940).
recommended_frame <- function(pkg, name) {
  if (!have(pkg)) return(NULL)
  # (survival's `colon` is lazy data that data() does not list by that name)
  found <- suppressWarnings(tryCatch(dataset(pkg, name), error = function(e) NULL))
  if (is.null(found)) found <- getExportedValue(pkg, name)
  as.data.frame(found)
}
flchain_frame <- function() {
  d <- recommended_frame("survival", "flchain")
  if (is.null(d)) return(NULL)
  keep <- c("age", "sex", "sample.yr", "kappa", "lambda", "creatinine", "mgus")
  d[stats::complete.cases(d[keep]), c(keep, "death")]
}
other_loaders <- list(
  MathAch = function() {
    d <- recommended_frame("nlme", "MathAchieve")
    if (is.null(d)) return(NULL)
    list(x = data.frame(Minority = factor(d$Minority), Sex = factor(d$Sex), SES = d$SES,
                        MEANSES = d$MEANSES), y = d$MathAch, family = "gaussian")
  },
  flchain = function() {
    d <- flchain_frame()
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "death")], y = d$death, family = "binomial")
  },
  flchain_kappa = function() {
    d <- flchain_frame()
    if (is.null(d)) return(NULL)
    list(x = d[c("age", "sex", "sample.yr", "lambda", "creatinine", "mgus")],
         y = log(d$kappa), family = "gaussian")
  },
  nwtco = function() {
    d <- recommended_frame("survival", "nwtco")
    if (is.null(d)) return(NULL)
    for (v in c("instit", "histol", "stage", "study")) d[[v]] <- factor(d[[v]])
    list(x = d[c("instit", "histol", "stage", "study", "age")], y = d$rel,
         family = "binomial")
  },
  colon = function() {
    d <- recommended_frame("survival", "colon")
    if (is.null(d)) return(NULL)
    d <- d[d$etype == 2, ]
    d$rx <- factor(d$rx)
    list(x = d[c("rx", "sex", "age", "obstruct", "perfor", "adhere", "nodes", "differ",
                 "extent", "surg", "node4")], y = d$status, family = "binomial")
  },
  nlschools = function() {
    d <- recommended_frame("MASS", "nlschools")
    if (is.null(d)) return(NULL)
    list(x = d[c("IQ", "GS", "SES", "COMB")], y = d$lang, family = "gaussian")
  },
  quakes = function() {
    d <- recommended_frame("datasets", "quakes")
    list(x = d[c("lat", "long", "depth", "stations")], y = d$mag, family = "gaussian")
  },
  biopsy = function() {
    d <- recommended_frame("MASS", "biopsy")
    if (is.null(d)) return(NULL)
    list(x = d[paste0("V", 1:9)], y = as.numeric(d$class == "malignant"),
         family = "binomial")
  },
  Credit = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "Credit")
    list(x = d[setdiff(names(d), "Balance")], y = d$Balance, family = "gaussian")
  },
  Pima = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "PimaIndiansDiabetes")
    list(x = d[setdiff(names(d), "diabetes")], y = as.numeric(d$diabetes == "pos"),
         family = "binomial")
  },
  midwest = function() {
    if (!have("ggplot2")) return(NULL)
    d <- as.data.frame(ggplot2::midwest)
    d$state <- factor(d$state)
    list(x = d[c("state", "area", "poptotal", "popdensity", "percwhite", "percblack",
                 "percasian", "perchsd", "percollege", "percprof", "inmetro")],
         y = d$percbelowpoverty, family = "gaussian")
  },
  economics = function() {
    if (!have("ggplot2")) return(NULL)
    d <- as.data.frame(ggplot2::economics)
    list(x = d[c("pce", "pop", "psavert", "uempmed")], y = d$unemploy, family = "gaussian")
  },
  diamonds_price = function() {
    if (!have("ggplot2")) return(NULL)
    d <- diamonds_frame()
    list(x = d$x[c("carat", "cut", "color", "clarity", "depth", "table")], y = d$price,
         family = "gaussian")
  },
  biomass = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("biomass")
    list(x = d[c("carbon", "hydrogen", "oxygen", "nitrogen", "sulfur")], y = d$HHV,
         family = "gaussian")
  },
  two_class = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("two_class_dat")
    list(x = d[c("A", "B")], y = as.numeric(d$Class == "Class1"), family = "binomial")
  },
  pd_speech = function() {
    if (!have("modeldata")) return(NULL)
    d <- modeldata_frame("pd_speech")
    list(x = d[setdiff(names(d), "class")], y = as.numeric(d$class == levels(d$class)[1L]),
         family = "binomial")
  }
)
# `--sweep5`: the sets of an independent sweep in session 27, data the
# defaults were not tuned on (survival, MASS, ISLR2, mlbench, ggplot2,
# nlme, datasets): clinical cohorts (nafld1, rotterdam, gbsg, Aids2), a
# school panel (bdf), seal tracks, chick weights, Boston's crime and
# pollution, and small classics (n = 150-400: Auto, Hitters, infert,
# birthwt, HouseVotes84, iris, airquality) read with the bench's crude
# bounds. Their first results: inst/bench/results/2026-11-27-session27.md.
sweep5_frame <- function(pkg, name) {
  d <- recommended_frame(pkg, name)
  if (is.null(d)) return(NULL)
  for (v in names(d)) if (is.factor(d[[v]])) d[[v]] <- factor(d[[v]], ordered = FALSE)
  d
}
sweep5_loaders <- list(
  nafld1_weight = function() {
    d <- sweep5_frame("survival", "nafld1")
    if (is.null(d)) return(NULL)
    list(x = d[c("age", "male", "height")], y = d$weight, family = "gaussian")
  },
  nafld1_death = function() {
    d <- sweep5_frame("survival", "nafld1")
    if (is.null(d)) return(NULL)
    list(x = d[c("age", "male", "weight", "height", "bmi")], y = as.numeric(d$status == 1),
         family = "binomial")
  },
  rotterdam = function() {
    d <- sweep5_frame("survival", "rotterdam")
    if (is.null(d)) return(NULL)
    list(x = d[c("age", "meno", "size", "grade", "nodes", "pgr", "er", "hormon", "chemo")],
         y = as.numeric(d$death == 1), family = "binomial")
  },
  gbsg = function() {
    d <- sweep5_frame("survival", "gbsg")
    if (is.null(d)) return(NULL)
    list(x = d[c("age", "meno", "size", "grade", "nodes", "pgr", "er", "hormon")],
         y = as.numeric(d$status == 1), family = "binomial")
  },
  Aids2 = function() {
    d <- sweep5_frame("MASS", "Aids2")
    if (is.null(d)) return(NULL)
    list(x = d[c("state", "sex", "age", "T.categ")], y = as.numeric(d$status == "D"),
         family = "binomial")
  },
  bdf = function() {
    d <- sweep5_frame("nlme", "bdf")
    if (is.null(d)) return(NULL)
    keep <- c("IQ.verb", "IQ.perf", "sex", "Minority", "repeatgr", "aritPRET", "langPRET",
              "ses", "denomina", "schoolSES", "satiprin", "natitest", "meetings",
              "currmeet", "mixedgra", "percmino", "aritdiff", "homework", "classsiz",
              "groupsiz")
    list(x = d[keep], y = d$aritPOST, family = "gaussian")
  },
  seals = function() {
    if (!have("ggplot2")) return(NULL)
    d <- as.data.frame(ggplot2::seals)
    list(x = d[c("lat", "long", "delta_lat")], y = d$delta_long, family = "gaussian")
  },
  ChickWeight = function() {
    d <- sweep5_frame("datasets", "ChickWeight")
    list(x = data.frame(Time = d$Time, Diet = factor(d$Diet, ordered = FALSE)),
         y = d$weight, family = "gaussian")
  },
  Boston_crim = function() {
    d <- sweep5_frame("ISLR2", "Boston")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "crim")], y = as.numeric(d$crim > stats::median(d$crim)),
         family = "binomial")
  },
  Boston_nox = function() {
    d <- sweep5_frame("ISLR2", "Boston")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "nox")], y = d$nox, family = "gaussian")
  },
  Auto = function() {
    d <- sweep5_frame("ISLR2", "Auto")
    if (is.null(d)) return(NULL)
    list(x = data.frame(d[c("cylinders", "displacement", "horsepower", "weight",
                            "acceleration", "year")], origin = factor(d$origin)),
         y = d$mpg, family = "gaussian")
  },
  Hitters = function() {
    d <- sweep5_frame("ISLR2", "Hitters")
    if (is.null(d)) return(NULL)
    d <- d[!is.na(d$Salary), ]
    list(x = d[setdiff(names(d), "Salary")], y = log(d$Salary), family = "gaussian")
  },
  HouseVotes84 = function() {
    d <- sweep5_frame("mlbench", "HouseVotes84")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "Class")], y = as.numeric(d$Class == "republican"),
         family = "binomial")
  },
  birthwt = function() {
    d <- sweep5_frame("MASS", "birthwt")
    if (is.null(d)) return(NULL)
    list(x = data.frame(d[c("age", "lwt")], race = factor(d$race),
                        d[c("smoke", "ptl", "ht", "ui", "ftv")]),
         y = as.numeric(d$low), family = "binomial")
  },
  infert = function() {
    d <- sweep5_frame("datasets", "infert")
    list(x = d[c("education", "age", "parity", "induced", "spontaneous")],
         y = as.numeric(d$case), family = "binomial")
  },
  iris_virginica = function() {
    d <- sweep5_frame("datasets", "iris")
    list(x = d[1:4], y = as.numeric(d$Species == "virginica"), family = "binomial")
  },
  airquality = function() {
    d <- sweep5_frame("datasets", "airquality")
    list(x = d[c("Solar.R", "Wind", "Temp")], y = d$Ozone, family = "gaussian")
  }
)
# `--sweep6`: the sets of an independent sweep in session 28 that no
# earlier bench read (ISLR2, modeldata, MASS, nlme, boot, survival,
# mlbench, datasets): stock volume, a salary, a nursing home's stays, a
# drug's concentrations, liver and eye cohorts, Pima's diabetes without
# its NAs, the Titanic's and Berkeley's admissions tables one row per
# person, and hearing tests. Their first results:
# inst/bench/results/2026-11-28-session28.md.
expand_table <- function(table) {
  d <- as.data.frame(table)
  d[rep(seq_len(nrow(d)), d$Freq), setdiff(names(d), "Freq")]
}
sweep6_loaders <- list(
  NYSE = function() {
    if (!have("ISLR2")) return(NULL)
    d <- dataset("ISLR2", "NYSE")
    list(x = data.frame(day_of_week = factor(d$day_of_week), DJ_return = d$DJ_return,
                        log_volatility = d$log_volatility),
         y = d$log_volume, family = "gaussian")
  },
  stackoverflow_logSalary = modeldata_set("stackoverflow", "Salary", "gaussian",
                                          transform = log),
  Titanic = function() {
    d <- expand_table(datasets::Titanic)
    list(x = d[c("Class", "Sex", "Age")], y = as.numeric(d$Survived == "Yes"),
         family = "binomial")
  },
  UCBAdmissions = function() {
    d <- expand_table(datasets::UCBAdmissions)
    list(x = d[c("Gender", "Dept")], y = as.numeric(d$Admit == "Admitted"), family = "binomial")
  },
  OME_correct = function() {
    d <- recommended_frame("MASS", "OME")
    if (is.null(d)) return(NULL)
    list(x = d[c("Age", "OME", "Loud", "Noise")], y = as.numeric(d$Correct / d$Trials > 0.5),
         family = "binomial")
  },
  Quinidine = function() {
    d <- recommended_frame("nlme", "Quinidine")
    if (is.null(d)) return(NULL)
    for (v in names(d)) if (is.factor(d[[v]])) d[[v]] <- factor(d[[v]], ordered = FALSE)
    keep <- c("time", "Age", "Height", "Weight", "Race", "Smoke", "Ethanol", "Heart",
              "Creatinine", "glyco")
    list(x = d[keep], y = d$conc, family = "gaussian")
  },
  channing = function() {
    d <- recommended_frame("boot", "channing")
    if (is.null(d)) return(NULL)
    list(x = d[c("sex", "entry", "cens")], y = d$time, family = "gaussian")
  },
  pbc = function() {
    d <- recommended_frame("survival", "pbc")
    if (is.null(d)) return(NULL)
    d$sex <- factor(d$sex)
    list(x = d[setdiff(names(d), c("id", "status", "time"))], y = as.numeric(d$status == 2),
         family = "binomial")
  },
  Pima_no_NA = function() {
    if (!have("mlbench")) return(NULL)
    d <- dataset("mlbench", "PimaIndiansDiabetes2")
    list(x = d[setdiff(names(d), "diabetes")], y = as.numeric(d$diabetes == "pos"),
         family = "binomial")
  },
  retinopathy = function() {
    d <- recommended_frame("survival", "retinopathy")
    if (is.null(d)) return(NULL)
    list(x = d[c("laser", "eye", "age", "type", "trt", "risk")], y = as.numeric(d$status),
         family = "binomial")
  },
  cgd = function() {
    d <- recommended_frame("survival", "cgd")
    if (is.null(d)) return(NULL)
    list(x = d[c("center", "treat", "sex", "age", "height", "weight", "inherit", "steroids",
                 "propylac", "hos.cat")], y = as.numeric(d$status), family = "binomial")
  }
)
# `--sweep7`: the sets of an independent sweep in session 29 that no
# earlier bench read (AER, wooldridge, carData: wages, insurance, smoking,
# 401(k) eligibility, test scores, mortgage and loan decisions, arrests,
# call-backs, labour participation, birth weight, grades, votes). AER's
# sets are skipped where AER is not installed. Their first results:
# inst/bench/results/2026-11-28-session29.md.
sweep7_frame <- function(pkg, name, keep = NULL) {
  if (!have(pkg)) return(NULL)
  d <- as.data.frame(dataset(pkg, name))
  if (!is.null(keep)) d <- d[keep]
  d <- d[stats::complete.cases(d), , drop = FALSE]
  for (v in names(d)) {
    if (is.character(d[[v]]) || is.logical(d[[v]])) d[[v]] <- factor(d[[v]])
    if (is.factor(d[[v]])) d[[v]] <- droplevels(factor(d[[v]], ordered = FALSE))
  }
  d
}
sweep7_loaders <- list(
  CPS1988 = function() {
    d <- sweep7_frame("AER", "CPS1988")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "wage")], y = log(d$wage), family = "gaussian")
  },
  HealthInsurance = function() {
    d <- sweep7_frame("AER", "HealthInsurance")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "insurance")], y = as.numeric(d$insurance == "yes"),
         family = "binomial")
  },
  SmokeBan = function() {
    d <- sweep7_frame("AER", "SmokeBan")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "smoker")], y = as.numeric(d$smoker == "yes"),
         family = "binomial")
  },
  Arrests = function() {
    d <- sweep7_frame("carData", "Arrests")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "released")], y = as.numeric(d$released == "No"),
         family = "binomial")
  },
  STAR_mathk = function() {
    keep <- c("gender", "ethnicity", "birth", "stark", "lunchk", "schoolk", "degreek",
              "ladderk", "experiencek", "tethnicityk", "mathk")
    d <- sweep7_frame("AER", "STAR", keep)
    if (is.null(d)) return(NULL)
    d$birth <- as.numeric(d$birth)
    list(x = d[setdiff(keep, "mathk")], y = d$mathk, family = "gaussian")
  },
  k401ksubs = function() {
    keep <- c("inc", "marr", "male", "age", "fsize", "nettfa", "pira", "e401k")
    d <- sweep7_frame("wooldridge", "k401ksubs", keep)
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(keep, "e401k")], y = as.numeric(d$e401k), family = "binomial")
  },
  CASchools = function() {
    keep <- c("county", "grades", "students", "teachers", "calworks", "lunch", "computer",
              "expenditure", "income", "english", "read", "math")
    d <- sweep7_frame("AER", "CASchools", keep)
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(keep, c("read", "math"))], y = (d$read + d$math) / 2,
         family = "gaussian")
  },
  HMDA = function() {
    d <- sweep7_frame("AER", "HMDA")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "deny")], y = as.numeric(d$deny == "yes"), family = "binomial")
  },
  ResumeNames = function() {
    d <- sweep7_frame("AER", "ResumeNames")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), c("call", "name"))], y = as.numeric(d$call == "yes"),
         family = "binomial")
  },
  SwissLabor = function() {
    d <- sweep7_frame("AER", "SwissLabor")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "participation")],
         y = as.numeric(d$participation == "yes"), family = "binomial")
  },
  Affairs = function() {
    d <- sweep7_frame("AER", "Affairs")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "affairs")], y = as.numeric(d$affairs > 0),
         family = "binomial")
  },
  bwght = function() {
    keep <- c("faminc", "cigtax", "cigprice", "fatheduc", "motheduc", "parity", "male",
              "white", "cigs", "bwght")
    d <- sweep7_frame("wooldridge", "bwght", keep)
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(keep, "bwght")], y = d$bwght, family = "gaussian")
  },
  gpa2 = function() {
    d <- sweep7_frame("wooldridge", "gpa2")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), c("colgpa", "hsizesq"))], y = d$colgpa, family = "gaussian")
  },
  Chile = function() {
    d <- sweep7_frame("carData", "Chile")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "vote")], y = as.numeric(d$vote == "Y"), family = "binomial")
  },
  SLID = function() {
    d <- sweep7_frame("carData", "SLID")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "wages")], y = log(d$wages), family = "gaussian")
  },
  TeachingRatings = function() {
    d <- sweep7_frame("AER", "TeachingRatings")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), c("eval", "prof"))], y = d$eval, family = "gaussian")
  },
  CollegeDistance = function() {
    d <- sweep7_frame("AER", "CollegeDistance")
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(names(d), "score")], y = d$score, family = "gaussian")
  },
  loanapp = function() {
    keep <- c("white", "hrat", "obrat", "loanprc", "unem", "male", "married", "dep", "sch",
              "cosign", "chist", "pubrec", "mortlat1", "mortlat2", "vr", "approve")
    d <- sweep7_frame("wooldridge", "loanapp", keep)
    if (is.null(d)) return(NULL)
    list(x = d[setdiff(keep, "approve")], y = as.numeric(d$approve), family = "binomial")
  }
)
diamonds_frame <- function() {
  d <- as.data.frame(ggplot2::diamonds)
  for (v in c("cut", "color", "clarity")) d[[v]] <- factor(d[[v]], ordered = FALSE)
  list(x = d[c("carat", "cut", "color", "clarity", "depth", "table", "x", "y", "z")],
       price = d$price)
}
all_loaders <- c(loaders, extra_loaders, more_loaders, new_loaders, other_loaders,
                 sweep5_loaders, sweep6_loaders, sweep7_loaders)
if ("--extra" %in% args) loaders <- c(loaders, extra_loaders)
if ("--more" %in% args) loaders <- c(loaders, more_loaders)
if ("--new" %in% args) loaders <- c(loaders, new_loaders)
if ("--others" %in% args) loaders <- c(loaders, other_loaders)
if ("--sweep5" %in% args) loaders <- c(loaders, sweep5_loaders)
if ("--sweep6" %in% args) loaders <- c(loaders, sweep6_loaders)
if ("--sweep7" %in% args) loaders <- c(loaders, sweep7_loaders)
if (!is.null(only)) loaders <- all_loaders[intersect(only, names(all_loaders))]

# A loaded set with its complete cases and the crude public bounds (2 max
# |x| per numeric column, 2 max |y| for a gaussian y), shared with
# inst/bench/cv_loss_bound.R; its clamp and model matrix below.
prepared_set <- function(d) {
  complete <- stats::complete.cases(d$x) & !is.na(d$y)
  d$x <- d$x[complete, , drop = FALSE]
  d$y <- d$y[complete]
  numeric_columns <- names(d$x)[vapply(d$x, is.numeric, logical(1))]
  c(d, list(n = nrow(d$x),
            x.bounds = lapply(d$x[numeric_columns], function(v) 2 * max(abs(v))),
            y.bound = if (d$family == "gaussian") 2 * max(abs(d$y))))
}
clamp_frame <- function(x, bounds) {
  for (v in names(bounds)) x[[v]] <- pmin(pmax(x[[v]], -bounds[[v]]), bounds[[v]])
  x
}
mm <- function(frame) stats::model.matrix(~ ., frame)[, -1L, drop = FALSE]

test_error <- function(family, link, y) {
  if (family == "gaussian") mean((y - link)^2) else mean((link > 0) != (y > 0.5))
}
guarded <- function(expr) {
  warn <- 0L
  value <- withCallingHandlers(tryCatch(expr, error = function(e) {
    cat("    error:", conditionMessage(e), "\n")
    NULL
  }), warning = function(w) {
    warn <<- warn + 1L
    invokeRestart("muffleWarning")
  })
  list(value = value, warn = warn)
}

# DPpack's held-out error: l2 objective perturbation at gamma = 1, or its
# own private tuning over gamma (delta = 1 / m^2 for the gaussian one)
dppack_error <- function(family, epsilon, tuned, x, y, xtest, ytest, lower, upper, y.bound) {
  m <- nrow(x)
  gammas <- if (tuned) 10^(-4:0) else 1
  x <- as.data.frame(x)
  xtest <- as.data.frame(xtest)
  if (family == "gaussian") {
    models <- lapply(gammas, function(g) DPpack::LinearRegressionDP$new(
      "l2", eps = epsilon, delta = 1 / m^2, gamma = g))
    model <- if (tuned) {
      DPpack::tune_linear_regression_model(models, x, y, c(upper, y.bound),
                                           c(lower, -y.bound), add.bias = TRUE)
    } else {
      models[[1]]$fit(x, y, c(upper, y.bound), c(lower, -y.bound), add.bias = TRUE)
      models[[1]]
    }
    return(mean((model$predict(xtest, add.bias = TRUE) - ytest)^2))
  }
  models <- lapply(gammas, function(g) DPpack::LogisticRegressionDP$new("l2", eps = epsilon,
                                                                          gamma = g))
  model <- if (tuned) {
    DPpack::tune_classification_model(models, x, y, upper, lower, add.bias = TRUE)
  } else {
    models[[1]]$fit(x, y, upper, lower, add.bias = TRUE)
    models[[1]]
  }
  mean((model$predict(xtest, add.bias = TRUE) > 0.5) != ytest)
}

rows <- list()
for (name in names(loaders)) {
  d <- loaders[[name]]()
  if (is.null(d)) {
    cat(sprintf("%s: skipped (its package is not installed)\n", name))
    next
  }
  d <- prepared_set(d)
  n <- d$n
  x.bounds <- d$x.bounds
  y.bound <- d$y.bound
  p <- ncol(mm(d$x[1:2, , drop = FALSE]))
  t0 <- proc.time()[[3]]
  for (split in seq_len(splits)) {
    set.seed(3000 + split)
    train <- sort(sample.int(n, round(0.8 * n)))
    test <- setdiff(seq_len(n), train)
    xt <- d$x[train, , drop = FALSE]
    yt <- d$y[train]
    xtest <- d$x[test, , drop = FALSE]
    ytest <- d$y[test]
    yt_clamped <- if (d$family == "gaussian") pmin(pmax(yt, -y.bound), y.bound) else yt
    reference <- NA_real_
    if (have_glmnet) {
      g <- guarded(glmnet::cv.glmnet(mm(clamp_frame(xt, x.bounds)), yt_clamped,
                                     family = d$family))
      if (!is.null(g$value)) {
        reference <- test_error(d$family, drop(stats::predict(
          g$value, mm(clamp_frame(xtest, x.bounds)), s = "lambda.min")), ytest)
      }
    }
    trivial <- if (d$family == "gaussian") mean((ytest - mean(yt))^2) else
      mean(ytest != as.numeric(mean(yt) > 0.5))
    # DPpack's bounds: the same public ones, dummies in [0, 1]
    x_train_mm <- mm(clamp_frame(xt, x.bounds))
    x_test_mm <- mm(clamp_frame(xtest, x.bounds))
    mm_bounds <- vapply(colnames(x_train_mm), function(v) {
      if (v %in% names(x.bounds)) x.bounds[[v]] else 1
    }, numeric(1))
    mm_lower <- ifelse(colnames(x_train_mm) %in% names(x.bounds), -mm_bounds, 0)
    for (epsilon in epsilons) for (draw in seq_len(seeds)) {
      seed <- 1000L * (draw - 1L) + split
      set.seed(seed)
      out <- guarded(cv.dpglmnet(xt, yt, family = d$family, epsilon = epsilon,
                                 x.bounds = x.bounds, y.bound = y.bound))
      ours <- NA_real_
      solver <- NA_character_
      absurd <- NA_integer_
      if (!is.null(out$value)) {
        pred <- guarded(stats::predict(out$value, xtest, s = "lambda.min", type = "link"))
        if (!is.null(pred$value)) ours <- test_error(d$family, drop(pred$value), ytest)
        solver <- out$value$dpglmnet.fit$settings$solver
        # absurd: a coefficient moving the prediction by more than 10 sd(y)
        # per sd of its column (binomial: 10 on the logit scale)
        b <- as.numeric(stats::coef(out$value, s = "lambda.min"))[-1L]
        spread <- apply(mm(xt), 2, stats::sd)
        scale_y <- if (d$family == "gaussian") stats::sd(yt) else 1
        absurd <- as.integer(any(abs(b) * spread > 10 * scale_y, na.rm = TRUE))
      }
      dppack <- c(NA_real_, NA_real_)
      if (have_dppack) {
        dppack <- vapply(c(FALSE, TRUE), function(tuned) {
          set.seed(seed)
          tryCatch(dppack_error(d$family, epsilon, tuned, x_train_mm, yt_clamped, x_test_mm,
                                ytest, mm_lower, mm_bounds, y.bound),
                   error = function(e) NA_real_)
        }, numeric(1))
      }
      rows[[length(rows) + 1L]] <- data.frame(
        data = name, family = d$family, n = n, p = p, eps = epsilon, split = split,
        draw = draw, dpglmnet = ours, cv.glmnet = reference, DPpack = dppack[1], DPpack_tuned = dppack[2],
        trivial = trivial, warn = out$warn,
        absurd = absurd,
        solver = if (is.null(solver)) NA_character_ else solver, stringsAsFactors = FALSE)
    }
  }
  cat(sprintf("%s: n = %d, p = %d (%s), %.0f s\n", name, n, p, d$family,
              proc.time()[[3]] - t0))
}
results <- do.call(rbind, rows)
summary_rows <- lapply(split(results, list(results$data, results$eps), drop = TRUE), function(r) {
  data.frame(data = r$data[1], family = r$family[1], n = r$n[1], p = r$p[1], eps = r$eps[1],
             dpglmnet = mean(r$dpglmnet), cv.glmnet = mean(r$cv.glmnet),
             DPpack = mean(r$DPpack), DPpack_tuned = mean(r$DPpack_tuned),
             trivial = mean(r$trivial),
             r_glmnet = mean(r$dpglmnet) / mean(r$cv.glmnet),
             r_trivial = mean(r$dpglmnet / r$trivial),
             r_trivial_max = max(r$dpglmnet / r$trivial),
             warn = sum(r$warn), absurd = sum(r$absurd),
             solver = paste(unique(r$solver), collapse = "/"),
             stringsAsFactors = FALSE)
})
table <- do.call(rbind, summary_rows)
table <- table[order(table$data, table$eps), ]
table$met <- with(table, (r_trivial_max <= 1.05 | n < 400 | eps < 0.5) &
                    (r_glmnet <= 1.15 | n < 5000 | eps != 1))
rownames(table) <- NULL
cat(sprintf("\nReal sets from CRAN packages, %d splits x %d noise draws (%s), commit %s\n",
            splits, seeds, format(Sys.time(), "%Y-%m-%d"),
            tryCatch(system("git rev-parse --short HEAD", intern = TRUE),
                     error = function(e) "?")))
print(format(table, digits = 3), row.names = FALSE)
cat(sprintf("\ntargets met: %d of %d rows\n", sum(table$met, na.rm = TRUE), nrow(table)))
