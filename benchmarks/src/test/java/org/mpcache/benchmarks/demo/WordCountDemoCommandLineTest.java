package org.mpcache.benchmarks.demo;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** WordCountDemo's command line through ToolRunner; no cluster starts. */
class WordCountDemoCommandLineTest extends ToolCommandLineContract {
  WordCountDemoCommandLineTest() {
    super(WordCountDemo::new);
  }

  @Test
  void run_badValues_exit1NamingOptionAndValue() throws Exception {
    assertUsageError(new String[] {"--input-mb", "0"}, "--input-mb", "'0'");
    assertUsageError(new String[] {"--input-mb", "4"}, "--block-mb 8 exceeds --input-mb 4");
    assertUsageError(new String[] {"--dir"}, "--dir");
  }
}
