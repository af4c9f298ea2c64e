package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.slave.SlaveConfigKeys;

/** Every property in mpcache-default.xml is a key some module declares: none is stale. */
class DefaultsFileTest {
  @Test
  void defaultsFile_describesOnlyDeclaredKeys() throws Exception {
    Set<String> declared = new TreeSet<>();
    for (Class<?> c : new Class<?>[] {MpCacheConfigKeys.class, MasterConfigKeys.class,
        SlaveConfigKeys.class, ClientConfigKeys.class}) {
      declared.addAll(ConfigKeysChecker.keysOf(c));
    }
    assertEquals(declared, new TreeSet<>(ConfigKeysChecker.defaults().keySet()));
  }
}
