package org.mpcache.slave;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class SlaveConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(SlaveConfigKeys.class);
  }
}
