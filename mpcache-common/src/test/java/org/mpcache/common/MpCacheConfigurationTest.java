package org.mpcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link MpCacheConfiguration#create} loads from an operator's conf directory. */
class MpCacheConfigurationTest {

  /**
   * The launcher puts the conf directory on the classpath; a Configuration finds its resources
   * through the thread's context class loader, so a loader over a temporary directory stands in.
   */
  private static Configuration createWithConfDir(Path dir, String... toolDefaults)
      throws Exception {
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
      t.setContextClassLoader(loader);
      Configuration conf = MpCacheConfiguration.create(toolDefaults);
      // Resources load lazily, through the loader the configuration was made with.
      conf.size();
      return conf;
    } finally {
      t.setContextClassLoader(before);
    }
  }

  @Test
  void create_readsTheBlockTokenSwitchFromHdfsSite() throws Exception {
    Path dir = Files.createTempDirectory("mpcache-conf");
    Files.writeString(dir.resolve("hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
        + "<property><name>dfs.block.access.token.enable</name><value>true</value></property>"
        + "<property><name>dfs.namenode.kerberos.principal</name>"
        + "<value>nn/_HOST@EXAMPLE.COM</value></property></configuration>\n");
    Configuration conf = createWithConfDir(dir);
    assertTrue(conf.getBoolean("dfs.block.access.token.enable", false),
        "dfs.block.access.token.enable=true in hdfs-site.xml is read");
    assertEquals("nn/_HOST@EXAMPLE.COM", conf.get("dfs.namenode.kerberos.principal"));
  }

  @Test
  void create_mpCacheSiteOverridesHdfsSite() throws Exception {
    Path dir = Files.createTempDirectory("mpcache-conf");
    Files.writeString(dir.resolve("hdfs-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
        + "<property><name>dfs.replication</name><value>2</value></property></configuration>\n");
    Files.writeString(dir.resolve("mpcache-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
        + "<property><name>dfs.replication</name><value>7</value></property></configuration>\n");
    assertEquals(7, createWithConfDir(dir).getInt("dfs.replication", 0));
  }

  @Test
  void setByUser_defaultsFileNo_siteFileAndCodeYes_unsetNo() throws Exception {
    Path dir = Files.createTempDirectory("mpcache-conf");
    Files.writeString(dir.resolve("mpcache-test-default.xml"), "<?xml version=\"1.0\"?>\n"
        + "<configuration><property><name>mpcache.test.a</name><value>1</value></property>"
        + "<property><name>mpcache.test.b</name><value>1</value></property></configuration>\n");
    Files.writeString(dir.resolve("mpcache-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>"
        + "<property><name>mpcache.test.b</name><value>2</value></property></configuration>\n");
    Configuration conf = createWithConfDir(dir, "mpcache-test-default.xml");
    conf.set("mpcache.test.c", "3");

    assertFalse(MpCacheConfiguration.setByUser(conf, "mpcache.test.a"), "defaults file only");
    assertTrue(MpCacheConfiguration.setByUser(conf, "mpcache.test.b"), "site file over it");
    assertTrue(MpCacheConfiguration.setByUser(conf, "mpcache.test.c"), "set in code");
    assertFalse(MpCacheConfiguration.setByUser(conf, "mpcache.test.none"), "no value");
  }
}
