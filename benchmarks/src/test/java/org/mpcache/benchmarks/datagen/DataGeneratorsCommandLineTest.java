package org.mpcache.benchmarks.datagen;

import org.junit.jupiter.api.Test;
import org.mpcache.common.tools.ToolCommandLineContract;

/** DataGenerators' positional command line through ToolRunner; nothing is written. */
class DataGeneratorsCommandLineTest extends ToolCommandLineContract {
  DataGeneratorsCommandLineTest() {
    super(DataGenerators::new);
  }

  @Test
  void run_badArguments_exit1NamingArgumentAndValue() throws Exception {
    assertUsageError(new String[] {"wikipedia", "/tmp/x"}, "missing argument <bytes>");
    assertUsageError(new String[] {"poems", "/tmp/x", "100"}, "<kind-or-benchmark>", "'poems'");
    assertUsageError(new String[] {"grep", "/tmp/x", "many"}, "<bytes>", "'many'");
    assertUsageError(new String[] {"grep", "/tmp/x", "100", "7", "8"}, "unexpected", "'8'");
  }
}
