package org.mpcache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The client jar is safe on any engine's classpath: every class in it is mpCache's own (one of
 * them in HDFS's package) or relocated under {@code org.mpcache.thirdparty} (its Netty, which
 * passes descriptors, so that it never meets the Netty that Hadoop or Spark ship, of whatever
 * version), none is Netty's or protobuf's under their own names, and the relocated native epoll
 * library loads under its relocated name. It runs in the integration-test phase, after the jar
 * is packaged; that execution sets {@code dist.client.jar}.
 */
@EnabledIfSystemProperty(named = "dist.client.jar", matches = ".+")
class ClientJarTest {
  private static final String RELOCATED = "org/mpcache/thirdparty/";
  /** hdfs-patches' one class in HDFS's package, which reaches a package-private member. */
  private static final String HDFS_BRIDGE = "org/apache/hadoop/hdfs/OpenedBlockList.class";
  private static final String NATIVE_EPOLL =
      "META-INF/native/liborg_mpcache_thirdparty_netty_transport_native_epoll_x86_64.so";

  private static Path clientJar() {
    return Paths.get(System.getProperty("dist.client.jar"));
  }

  @Test
  void everyClassIsOwnOrRelocated_nativeLibraryUnderItsRelocatedName() throws IOException {
    List<String> entries;
    try (JarFile jar = new JarFile(clientJar().toFile())) {
      entries = Collections.list(jar.entries()).stream().map(e -> e.getName())
          .collect(Collectors.toList());
    }
    List<String> foreign = entries.stream()
        .filter(n -> n.endsWith(".class") && !n.startsWith("org/mpcache/")
            && !n.equals(HDFS_BRIDGE))
        .collect(Collectors.toList());
    assertEquals(List.of(), foreign, "classes outside org/mpcache/");
    List<String> netty = entries.stream().filter(n -> n.startsWith(RELOCATED + "io/netty/"))
        .collect(Collectors.toList());
    assertTrue(netty.contains(RELOCATED + "io/netty/channel/epoll/Epoll.class")
        && netty.contains(RELOCATED + "io/netty/channel/unix/FileDescriptor.class"),
        "the relocated Netty is incomplete: " + netty.size() + " entries");
    assertEquals(List.of(NATIVE_EPOLL), entries.stream()
        .filter(n -> n.startsWith("META-INF/native/") && !n.endsWith("/"))
        .collect(Collectors.toList()), "native libraries");
    assertEquals(List.of(), entries.stream()
        .filter(n -> n.startsWith("META-INF/services/") && n.contains("netty"))
        .collect(Collectors.toList()), "service files naming unrelocated Netty classes");
  }

  /**
   * In a class loader holding the client jar and Hadoop's own jars (Netty among them, under its
   * own names), as a task's or an executor's classpath does, the client's descriptor transport
   * is available, through the relocated classes and library.
   */
  @Test
  void descriptorTransportLoadsBesideHadoopsOwnNetty() throws Exception {
    assumeTrue(System.getProperty("os.name").equals("Linux")
        && System.getProperty("os.arch").equals("amd64"),
        "the client jar carries the x86-64 Linux epoll library only");
    List<URL> urls = new ArrayList<>();
    urls.add(clientJar().toUri().toURL());
    boolean hadoopsNetty = false;
    for (String entry : System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path")).split(File.pathSeparator)) {
      String name = Paths.get(entry).getFileName().toString();
      // Hadoop's jars and their dependencies; not the project's own classes, which the client
      // jar carries.
      if (name.endsWith(".jar") && !entry.contains("org/mpcache") && !name.startsWith("mpcache-")
          && !name.startsWith("hdfs-patches") && !name.startsWith("yarn-integration")) {
        urls.add(Paths.get(entry).toUri().toURL());
        hadoopsNetty |= name.startsWith("netty-transport-native-epoll");
      }
    }
    assertTrue(hadoopsNetty, "Hadoop's own Netty is not on the test's classpath");
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]),
        ClassLoader.getPlatformClassLoader())) {
      Class<?> client = Class.forName("org.mpcache.common.domain.DescriptorClient", true, loader);
      Method available = client.getMethod("isAvailable");
      Method cause = client.getMethod("unavailabilityCause");
      assertTrue((Boolean) available.invoke(null),
          "descriptors unavailable: " + cause.invoke(null));
      assertEquals(clientJar().toUri().toURL(),
          Class.forName(RELOCATED.replace('/', '.') + "io.netty.channel.epoll.Epoll", false, loader)
              .getProtectionDomain().getCodeSource().getLocation());
    }
  }
}
