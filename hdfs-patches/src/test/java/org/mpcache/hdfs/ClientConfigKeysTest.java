package org.mpcache.hdfs;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;

class ClientConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(ClientConfigKeys.DEFAULT_RESOURCE, ClientConfigKeys.class);
  }
}
