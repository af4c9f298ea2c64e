package org.mpcache.benchmarks.eval;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** EvalMain's command line through ToolRunner; no cluster starts. */
class EvalMainCommandLineTest extends ToolCommandLineContract {
  EvalMainCommandLineTest() {
    super(EvalMain::new);
  }

  @Test
  void run_badValues_exit1NamingOptionAndValue() throws Exception {
    assertUsageError(new String[] {"--jobs", "x"}, "--jobs", "'x'");
    assertUsageError(new String[] {"--full", "--node-cores", "0"}, "--node-cores", "'0'");
    assertUsageError(new String[] {"--modes", "hadoop,spark"}, "--modes", "spark", "all-ssd");
    assertUsageError(new String[] {"--sweep-cache-mb", "64,-128"}, "--sweep-cache-mb", "'-128'");
    assertUsageError(new String[] {"--out"}, "--out");
    assertUsageError(new String[] {"--repeat", "0"}, "--repeat", "'0'");
    assertUsageError(new String[] {"--mix", "zipf"}, "--mix", "zipf");
  }
}
