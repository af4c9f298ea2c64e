package org.mpcache.benchmarks.puma;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class PumaConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(PumaConfigKeys.DEFAULT_RESOURCE, PumaConfigKeys.class);
  }
}
