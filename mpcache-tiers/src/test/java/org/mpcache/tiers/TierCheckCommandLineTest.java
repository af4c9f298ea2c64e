package org.mpcache.tiers;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** TierCheck's command line through ToolRunner; no tier is set up. */
class TierCheckCommandLineTest extends ToolCommandLineContract {
  TierCheckCommandLineTest() {
    super(TierCheck::new);
  }

  @Test
  void run_badValues_exit1NamingOptionAndValue() throws Exception {
    assertUsageError(new String[] {"--nodes", "0"}, "--nodes", "'0'");
    assertUsageError(new String[] {"--seconds", "soon"}, "--seconds", "'soon'");
    // Among the options: a leading -D is GenericOptionsParser's, which skips one without '='.
    assertUsageError(new String[] {"--nodes", "1", "-D", "mpcache.tiers.hdd.iops"}, "-D",
        "key=value");
  }
}
