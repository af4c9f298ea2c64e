package org.mpcache.slave.fill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * Which paths lie on the cluster's own HDFS: {@code fs.defaultFS}, the nameservices and their
 * NameNodes' RPC addresses, compared as text; everything else is refused.
 */
class FillSourcesTest {
  private static Configuration conf(String defaultFs) {
    Configuration c = new Configuration(false);
    c.set(FileSystem.FS_DEFAULT_NAME_KEY, defaultFs);
    return c;
  }

  private static String resolve(FillSources s, String path) {
    URI u = s.resolve(path);
    return u == null ? null : u.toString();
  }

  /** Checks that each path resolves to the URI given after it. */
  private static void assertResolves(FillSources s, String... pathThenUri) {
    for (int i = 0; i < pathThenUri.length; i += 2) {
      assertEquals(pathThenUri[i + 1], resolve(s, pathThenUri[i]), pathThenUri[i]);
    }
  }

  private static void assertRefused(FillSources s, String... paths) {
    for (String p : paths) {
      assertNull(resolve(s, p), p);
    }
  }

  @Test
  void resolve_defaultFsPaths_areQualifiedInItsOwnSpelling() {
    String own = "hdfs://nn.example.com:8020/a/b";
    assertResolves(FillSources.of(conf("hdfs://nn.example.com:8020")), own, own,
        "hdfs://NN.Example.com/a/b", own, "/a/b", own, "hdfs:///a/b", own,
        "a", "hdfs://nn.example.com:8020/a");
  }

  @Test
  void resolve_anotherSchemeOrAuthority_isRefused() {
    assertRefused(FillSources.of(conf("hdfs://nn:8020")), "hdfs://otherhost:8020/x",
        "hdfs://nn:8021/x", "hdfs://nn.evil/x", "hdfs://user@nn:8020/x", "file:///x",
        "webhdfs://nn:8020/x", "viewfs://nn/x", "//nn:8020/x", "s3a://nn/x",
        "hdfs://nn:8020:8020/x");
  }

  @Test
  void resolve_withoutHdfsConfigured_refusesEverything() {
    FillSources s = FillSources.of(conf("file:///"));
    assertTrue(s.authorities().isEmpty());
    assertRefused(s, "/a", "hdfs://nn/a", "file:///a");
  }

  @Test
  void resolve_nameservicesAndTheirNameNodes_areTheClustersOwn() {
    Configuration c = conf("hdfs://ns1");
    c.set("dfs.nameservices", "ns1,ns2");
    c.set("dfs.ha.namenodes.ns1", "nn1,nn2");
    c.set("dfs.namenode.rpc-address.ns1.nn1", "host1:8020");
    c.set("dfs.namenode.rpc-address.ns1.nn2", "host2:9000");
    c.set("dfs.namenode.rpc-address.ns2", "host3:8020");
    FillSources s = FillSources.of(c);
    assertResolves(s, "/x", "hdfs://ns1/x", "hdfs://ns1:8020/x", "hdfs://ns1/x",
        "hdfs://ns2/x", "hdfs://ns2/x", "hdfs://host1/x", "hdfs://host1:8020/x",
        "hdfs://host2:9000/x", "hdfs://host2:9000/x", "hdfs://host3:8020/x",
        "hdfs://host3:8020/x");
    // Another port of a NameNode's host, and a nameservice not configured.
    assertRefused(s, "hdfs://host2:8020/x", "hdfs://ns3/x");
  }

  @Test
  void of_internalNameservices_narrowTheNameservicesToThoseTheDataNodesServe() {
    Configuration c = conf("file:///");
    c.set("dfs.nameservices", "ns1,remote");
    c.set("dfs.internal.nameservices", "ns1");
    FillSources s = FillSources.of(c);
    assertResolves(s, "hdfs://ns1/x", "hdfs://ns1/x");
    // fs.defaultFS is not HDFS: a path without an authority has nowhere to go.
    assertRefused(s, "hdfs://remote/x", "/x");
  }

  @Test
  void isOwn_comparesSchemeAndAuthorityOnly() {
    FillSources s = FillSources.of(conf("hdfs://nn:8020"));
    assertTrue(s.isOwn(URI.create("hdfs://nn/x")));
    assertFalse(s.isOwn(URI.create("hdfs://other:8020/x")));
    assertFalse(s.isOwn(URI.create("file:///x")));
    assertFalse(s.isOwn(URI.create("/x")), "unqualified: resolve it first");
  }

  @Test
  void admit_countsEachRefusalAndQualifiesTheRest() {
    FillSourceGate gate = new FillSourceGate(FillSources.of(conf("hdfs://nn:8020")), () -> 0);
    assertEquals("hdfs://nn:8020/x", gate.admit("/x", "lookup"));
    assertNull(gate.admit("hdfs://other/x", "lookup"));
    assertNull(gate.admit("hdfs://other/y", "prefetch"));
    assertEquals(2, gate.refused());
  }
}
