package org.mpcache.slave.localized;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class LocalizedConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(LocalizedConfigKeys.class);
  }
}
