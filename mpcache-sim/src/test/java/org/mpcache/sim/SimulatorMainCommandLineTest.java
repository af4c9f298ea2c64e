package org.mpcache.sim;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** SimulatorMain's command line through ToolRunner; nothing is simulated. */
class SimulatorMainCommandLineTest extends ToolCommandLineContract {
  SimulatorMainCommandLineTest() {
    super(SimulatorMain::new);
  }

  @Test
  void run_badValues_exit1NamingOptionAndValue() throws Exception {
    assertUsageError(new String[] {"--policies", "mpcache,fifo"}, "--policies", "'fifo'");
    assertUsageError(new String[] {"--hdd-mbps", "0"}, "--hdd-mbps", "'0'");
    assertUsageError(new String[] {"--sizes-gb", "5,ten"}, "--sizes-gb", "'ten'");
    assertUsageError(new String[] {"--full-bonus", "-1"}, "--full-bonus", "'-1'");
    assertUsageError(new String[] {"--trace", "synthetic", "--size-alpha", "0"}, "--size-alpha",
        "'0'");
    assertUsageError(new String[] {"--datasets", "none"}, "--datasets", "'none'");
    assertUsageError(new String[] {"--size-exponent", "-0.5"}, "--size-exponent", "'-0.5'");
    assertUsageError(new String[] {"--size-exponent", "1.5"}, "--size-exponent", "1.5");
  }
}
