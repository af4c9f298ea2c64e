package org.mpcache.sim;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** SimulatorBenchmark's command line through ToolRunner; nothing is measured. */
class SimulatorBenchmarkCommandLineTest extends ToolCommandLineContract {
  SimulatorBenchmarkCommandLineTest() {
    super(SimulatorBenchmark::new);
  }

  @Test
  void run_badValues_exit1NamingOptionAndValue() throws Exception {
    assertUsageError(new String[] {"--blocks", "1e6"}, "--blocks", "'1e6'");
    assertUsageError(new String[] {"--policies", "fifo"}, "--policies", "'fifo'");
    assertUsageError(new String[] {"--jobs"}, "--jobs");
  }
}
