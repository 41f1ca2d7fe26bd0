#!/usr/bin/env bash
# The "before" builds of HomePatchUnderCreatesPerformance (BENCHMARKS.md, "Foster-home PATCH under placement creates"),
# each a git archive of e9cd809 (the commit before decision 43) with this checkout's program and DatabaseProxy copied
# in, so that every build runs the same program through the same proxy:
#   DIR/e9cd809             every home PATCH names license_number in its SET: a rename takes the key-strength lock
#   DIR/e9cd809-lock-alone  the same with lock-alone.patch, decision 43's one change: license_number named only when
#                           it changes (a second UPDATE text, chosen by comparing with the locked row)
# Each tree is compiled with its test classpath in DIR/<tree>/bench.cp (offline: the Maven repository must hold
# e9cd809's dependencies, as after one build of it). Run from the repository root: before-builds.sh DIR
set -euo pipefail
mkdir -p "${1:?usage: $0 DIR}"
out=$(cd "$1" && pwd)
here=mutation-api/src/test/resources/bench/home-patch
program=mutation-api/src/test/java/org/caseassignments/api/fosterhome/HomePatchUnderCreatesPerformance.java
proxy=testkit/src/main/java/org/caseassignments/testkit/DatabaseProxy.java
for tree in e9cd809 e9cd809-lock-alone; do
  rm -rf "${out:?}/$tree"
  mkdir -p "$out/$tree"
  git archive e9cd809 | tar -x -C "$out/$tree"
  cp "$program" "$out/$tree/$program"
  cp "$proxy" "$out/$tree/$proxy"
done
patch -d "$out/e9cd809-lock-alone" -p1 --quiet < "$here/lock-alone.patch"
for tree in e9cd809 e9cd809-lock-alone; do
  (cd "$out/$tree" && ./mvnw -B -ntp -o -q -pl mutation-api -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$out/$tree/bench.cp")
  echo "built $out/$tree; run it with (cd $out/$tree && java ... -cp \"mutation-api/target/test-classes:mutation-api/target/classes:\$(cat bench.cp)\" org.caseassignments.api.fosterhome.HomePatchUnderCreatesPerformance)"
done
