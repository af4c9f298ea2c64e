package org.mpcache.benchmarks.puma;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** ShuffleRatioMeter's positional command line through ToolRunner; no job runs. */
class ShuffleRatioMeterCommandLineTest extends ToolCommandLineContract {
  ShuffleRatioMeterCommandLineTest() {
    super(ShuffleRatioMeter::new);
  }

  @Test
  void run_badArguments_exit1NamingArgumentAndValue() throws Exception {
    assertUsageError(new String[] {"48"}, "missing argument <work-dir>");
    assertUsageError(new String[] {"lots", "/tmp/x"}, "<megabytes>", "'lots'");
    assertUsageError(new String[] {"48", "/tmp/x", "grep", "poker"}, "<benchmark>", "'poker'");
  }
}
