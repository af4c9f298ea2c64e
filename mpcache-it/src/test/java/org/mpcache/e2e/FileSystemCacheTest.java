package org.mpcache.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpcache.e2e.ClusterFiles.data;
import static org.mpcache.e2e.ClusterFiles.readUntilCached;
import static org.mpcache.e2e.ClusterFiles.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.PrivilegedExceptionAction;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;
import org.mpcache.common.proto.MpCacheProtos.SlaveCountersProto;
import org.mpcache.hdfs.MpCacheFileSystem;
import org.mpcache.minicluster.MiniMpCacheCluster;

/**
 * A client configured as docs/install.md's core-site.xml says, with Hadoop's FileSystem cache as
 * it comes (on): {@code FileSystem.get} gives the JVM one {@link MpCacheFileSystem} per cluster
 * and user, as it does HDFS's, and that one reads through the cache. The properties are taken
 * from the guide itself, so that a guide turning the cache off (each {@code get} a new instance
 * with threads of its own, never closed by callers that rely on the cache) fails here.
 */
class FileSystemCacheTest {
  private static final String DISABLE_CACHE = "fs.hdfs.impl.disable.cache";
  private static MiniMpCacheCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    cluster = ClusterFiles.smallBlockCluster("fs-cache");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The properties of the guide's core-site.xml for clients. */
  private static Map<String, String> installGuideCoreSite() throws IOException {
    String guide = Files.readString(Paths.get("..", "docs", "install.md"));
    int section = guide.indexOf("### core-site.xml");
    assertTrue(section >= 0, "docs/install.md has no core-site.xml section");
    int start = guide.indexOf("```xml", section);
    String block = guide.substring(start, guide.indexOf("```", start + 6));
    Map<String, String> props = new LinkedHashMap<>();
    Matcher m = Pattern.compile("<name>([^<]+)</name><value>([^<]*)</value>").matcher(block);
    while (m.find()) {
      props.put(m.group(1), m.group(2));
    }
    assertFalse(props.isEmpty(), "no property in the guide's core-site.xml");
    return props;
  }

  @Test
  void get_clientConfiguredAsTheInstallGuideSays_sharesOneFileSystemThatReadsThroughTheCache()
      throws Exception {
    Path p = new Path("/fs-cache/data");
    byte[] content = data(31, 2 * ClusterFiles.SMALL_BLOCK + 100);
    write(cluster, p, content);
    readUntilCached(cluster, p);

    // The cluster's own client settings without its FileSystem settings; then the guide's.
    Configuration conf = cluster.conf();
    conf.unset("fs.hdfs.impl");
    conf.unset(DISABLE_CACHE);
    installGuideCoreSite().forEach(conf::set);
    conf.set(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY,
        cluster.conf().get(MpCacheConfigKeys.MASTER_RPC_ADDRESS_KEY));

    // A user of its own: Hadoop's cache already holds this JVM's plain HDFS client for the
    // cluster's user (the embedded cluster's), made before the guide's settings.
    UserGroupInformation reader = UserGroupInformation.createRemoteUser("reader");
    FileSystem fs = reader.doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.get(cluster.dfs().getURI(), conf));
    try {
      assertTrue(fs instanceof MpCacheFileSystem, "got " + fs.getClass());
      assertSame(fs, reader.doAs((PrivilegedExceptionAction<FileSystem>) () ->
          FileSystem.get(cluster.dfs().getURI(), new Configuration(conf))),
          "one FileSystem per cluster and user, from Hadoop's FileSystem cache");
      SlaveCountersProto before = cluster.totals();
      byte[] got = new byte[content.length];
      try (FSDataInputStream in = fs.open(p)) {
        IOUtils.readFully(in, got, 0, got.length);
      }
      assertArrayEquals(content, got);
      SlaveCountersProto after = cluster.totals();
      assertEquals(content.length, after.getBytesFromCache() - before.getBytesFromCache(),
          "every byte from the cache");
    } finally {
      // Leaves Hadoop's cache as the test found it.
      fs.close();
    }
  }
}
