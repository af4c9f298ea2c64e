package org.mpcache.common;

import org.junit.jupiter.api.Test;

class MpCacheConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(MpCacheConfigKeys.DEFAULT_RESOURCE, MpCacheConfigKeys.class);
  }
}
