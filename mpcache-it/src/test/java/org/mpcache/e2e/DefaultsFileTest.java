package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.mpcache.common.ConfigKeysChecker;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.benchmarks.puma.PumaConfigKeys;
import org.mpcache.tiers.TierConfigKeys;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.slave.localized.LocalizedConfigKeys;
import org.mpcache.yarn.YarnIntegrationConfigKeys;

/**
 * Every property in mpcache-default.xml is a key some module declares (none is stale), and the
 * operator's reference, docs/configuration.md, lists every one of them.
 */
class DefaultsFileTest {
  @Test
  void defaultsFile_describesOnlyDeclaredKeys() throws Exception {
    Set<String> declared = new TreeSet<>();
    for (Class<?> c : new Class<?>[] {MpCacheConfigKeys.class, MasterConfigKeys.class,
        SlaveConfigKeys.class, ClientConfigKeys.class, LocalizedConfigKeys.class,
        YarnIntegrationConfigKeys.class, PumaConfigKeys.class,
        TierConfigKeys.class}) {
      declared.addAll(ConfigKeysChecker.keysOf(c));
    }
    assertEquals(declared, new TreeSet<>(ConfigKeysChecker.defaults().keySet()));
  }

  @Test
  void configurationDoc_listsEveryKey() throws Exception {
    String doc = Files.readString(Paths.get("..", "docs", "configuration.md"));
    for (Map.Entry<String, ConfigKeysChecker.Property> e : ConfigKeysChecker.defaults()
        .entrySet()) {
      assertTrue(doc.contains("| `" + e.getKey() + "` | `" + e.getValue().value + "` |"),
          "docs/configuration.md lacks " + e.getKey() + " with default " + e.getValue().value);
    }
  }
}
