package org.mpcache.master;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class MasterConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(MasterConfigKeys.DEFAULT_RESOURCE, MasterConfigKeys.class);
  }
}
