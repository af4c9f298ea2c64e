package org.mpcache.slave;

import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;
import org.mpcache.slave.localized.LocalizedConfigKeys;

/** The slave's defaults file describes the keys of both its keys classes, and no others. */
class SlaveConfigKeysTest {
  @Test
  void keys_matchDefaultsFile() throws Exception {
    ConfigKeysChecker.assertInSync(SlaveConfigKeys.DEFAULT_RESOURCE, SlaveConfigKeys.class,
        LocalizedConfigKeys.class);
  }
}
