# Shared by tools/setup.sh and tools/test.sh: from the repository root, point
# DPGLMNET_DATA at the DP-CD paper's datasets when the project's shared folder
# is beside us (tests and vignettes fall back to generated data otherwise),
# install what is missing, then build the package with its vignettes
# (R CMD build, about a minute) and install the tarball, so that
# vignette(package = "dpglmnet") lists them. `R CMD INSTALL .` alone would
# install no vignettes. Without pandoc the vignettes cannot be built: the
# package is then installed without them, with a message.
if [ -z "${DPGLMNET_DATA:-}" ] && [ -d ../shared/data ]; then
  DPGLMNET_DATA=$(cd ../shared/data && pwd)
  export DPGLMNET_DATA
fi
bash tools/install-deps.sh
dpglmnet_build=$(mktemp -d)
dpglmnet_vignettes=
if ! command -v pandoc >/dev/null 2>&1; then
  echo "prepare: pandoc is missing: installing dpglmnet without its vignettes" >&2
  dpglmnet_vignettes=--no-build-vignettes
fi
dpglmnet_source=$(pwd)
(cd "$dpglmnet_build" && R CMD build --no-manual $dpglmnet_vignettes "$dpglmnet_source") \
  >"$dpglmnet_build/build.log" 2>&1 || { cat "$dpglmnet_build/build.log"; exit 1; }
R CMD INSTALL --no-multiarch "$dpglmnet_build"/dpglmnet_*.tar.gz \
  >"$dpglmnet_build/install.log" 2>&1 || { cat "$dpglmnet_build/install.log"; exit 1; }
# .ci/run checks this tarball rather than building the package a second time.
if [ -n "${DPGLMNET_TARBALL_DIR:-}" ] && [ -z "$dpglmnet_vignettes" ]; then
  cp "$dpglmnet_build"/dpglmnet_*.tar.gz "$DPGLMNET_TARBALL_DIR"/
fi
rm -rf "$dpglmnet_build"
unset dpglmnet_build dpglmnet_vignettes dpglmnet_source
