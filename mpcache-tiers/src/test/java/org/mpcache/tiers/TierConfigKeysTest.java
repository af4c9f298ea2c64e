package org.mpcache.tiers;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class TierConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(TierConfigKeys.DEFAULT_RESOURCE, TierConfigKeys.class);
  }
}
