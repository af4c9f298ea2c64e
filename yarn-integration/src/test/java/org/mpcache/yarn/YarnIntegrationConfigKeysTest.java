package org.mpcache.yarn;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class YarnIntegrationConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(YarnIntegrationConfigKeys.DEFAULT_RESOURCE, YarnIntegrationConfigKeys.class);
  }
}
