package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.mpcache.benchmarks.puma.PumaConfigKeys;
import org.mpcache.common.ConfigKeysChecker;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.MpCacheConfiguration;
import org.mpcache.hdfs.ClientConfigKeys;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.slave.SlaveConfigKeys;
import org.mpcache.tiers.TierConfigKeys;
import org.mpcache.yarn.YarnIntegrationConfigKeys;

/**
 * The modules' defaults files together: the list a process loads names every production module's
 * file (and no evaluation file), no key is described by two modules, a process with every module
 * on its classpath sees every key's default (a key without one is not set), and the operator's reference, docs/configuration.md,
 * lists every key of every file with its default. Each module's own test keeps its file and its
 * keys classes in step.
 */
class DefaultsFileTest {
  private static final List<String> PRODUCTION = List.of(MpCacheConfigKeys.DEFAULT_RESOURCE,
      MasterConfigKeys.DEFAULT_RESOURCE, SlaveConfigKeys.DEFAULT_RESOURCE,
      ClientConfigKeys.DEFAULT_RESOURCE, YarnIntegrationConfigKeys.DEFAULT_RESOURCE);
  private static final List<String> EVALUATION = List.of(PumaConfigKeys.DEFAULT_RESOURCE,
      TierConfigKeys.DEFAULT_RESOURCE);

  /** Every key of every defaults file, and the file that describes it. */
  private static Map<String, String> owners() throws Exception {
    Map<String, String> owner = new TreeMap<>();
    List<String> all = new ArrayList<>(PRODUCTION);
    all.addAll(EVALUATION);
    for (String resource : all) {
      for (String key : ConfigKeysChecker.defaults(resource).keySet()) {
        String before = owner.put(key, resource);
        assertTrue(before == null, key + " is described in both " + before + " and " + resource);
      }
    }
    return owner;
  }

  @Test
  void defaultResources_areTheProductionModulesFiles() {
    assertEquals(PRODUCTION, MpCacheConfigKeys.DEFAULT_RESOURCES);
  }

  @Test
  void defaultsFiles_describeEachKeyOnce() throws Exception {
    assertTrue(owners().size() > 50, "the files describe " + owners().size() + " keys");
  }

  @Test
  void create_loadsEveryProductionDefaultAndTheToolsOwn() throws Exception {
    Configuration tool = MpCacheConfiguration.create(EVALUATION.toArray(new String[0]));
    Configuration daemon = MpCacheConfiguration.create();
    for (Map.Entry<String, String> e : owners().entrySet()) {
      String[] sources = tool.getPropertySources(e.getKey());
      boolean hasDefault = !ConfigKeysChecker.defaults(e.getValue()).get(e.getKey()).value
          .isEmpty();
      assertTrue(!hasDefault || sources != null && List.of(sources).contains(e.getValue()),
          e.getKey() + " is not loaded from " + e.getValue());
      if (EVALUATION.contains(e.getValue())) {
        assertNull(daemon.getPropertySources(e.getKey()),
            "a daemon does not load the evaluation's " + e.getKey());
      }
    }
  }

  @Test
  void configurationDoc_listsEveryKey() throws Exception {
    String doc = Files.readString(Paths.get("..", "docs", "configuration.md"));
    for (String resource : owners().values().stream().distinct().toList()) {
      for (Map.Entry<String, ConfigKeysChecker.Property> e : ConfigKeysChecker.defaults(resource)
          .entrySet()) {
        assertTrue(doc.contains("| `" + e.getKey() + "` | `" + e.getValue().value + "` |"),
            "docs/configuration.md lacks " + e.getKey() + " with default " + e.getValue().value);
      }
    }
  }
}
