package org.mpcache.slave.fill;

import java.net.URI;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;

/**
 * Which file systems a slave may read blocks from when it fills them itself (readers' misses,
 * the operator's prefetches): its own cluster's HDFS only, the one whose
 * block pools the DataNode beside it serves, so that HDFS's own checksums vouch for every byte it
 * caches. That is {@code fs.defaultFS} when it is an {@code hdfs://} URI, each nameservice the
 * DataNodes serve ({@code dfs.internal.nameservices}, else {@code dfs.nameservices}), and the
 * NameNode RPC addresses configured for them ({@code dfs.namenode.rpc-address[.<ns>[.<nn>]]}).
 * Authorities are compared as text, host names case-insensitively and a missing port read as
 * {@value HdfsClientConfigKeys#DFS_NAMENODE_RPC_PORT_DEFAULT}, and never resolved: deciding costs
 * no lookup and no connection. A path without a scheme and authority (or {@code hdfs:} without an
 * authority) lies on {@code fs.defaultFS}, a relative one under its root. Any other scheme or
 * authority is not the cluster's own, whatever the NameNode behind it would say: a client could
 * run a NameNode of its own that names this cluster's block pool and ids.
 *
 * <p>Pure and immutable: built once from the configuration, thread-safe.
 */
public final class FillSources {
  private static final String HDFS = "hdfs";
  private static final Pattern HOST_PORT = Pattern.compile("(.+):(\\d{1,5})");

  /** fs.defaultFS's authority when it is HDFS, as configured; null otherwise. */
  private final String defaultAuthority;
  /**
   * The cluster's NameNode authorities: normalized ({@link #normalize}) to as configured. A
   * resolved path takes the configured spelling, so the slave opens one client per entry however
   * callers spell it.
   */
  private final Map<String, String> authorities;

  private FillSources(String defaultAuthority, Map<String, String> authorities) {
    this.defaultAuthority = defaultAuthority;
    this.authorities = Collections.unmodifiableMap(authorities);
  }

  /** The cluster's own file systems as {@code conf} configures them. */
  public static FillSources of(Configuration conf) {
    Map<String, String> own = new LinkedHashMap<>();
    URI defaultUri = FileSystem.getDefaultUri(conf);
    String defaultAuthority = null;
    if (HDFS.equalsIgnoreCase(defaultUri.getScheme())
        && add(own, defaultUri.getAuthority())) {
      defaultAuthority = defaultUri.getAuthority();
    }
    add(own, conf.getTrimmed(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY));
    Collection<String> nameservices =
        conf.getTrimmedStringCollection(DFSConfigKeys.DFS_INTERNAL_NAMESERVICES_KEY);
    if (nameservices.isEmpty()) {
      nameservices = conf.getTrimmedStringCollection(HdfsClientConfigKeys.DFS_NAMESERVICES);
    }
    for (String ns : nameservices) {
      // The logical name an HA client uses, and each NameNode's own address.
      add(own, ns);
      add(own, conf.getTrimmed(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + ns));
      for (String nn : conf.getTrimmedStringCollection(
          HdfsClientConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + "." + ns)) {
        add(own, conf.getTrimmed(HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + ns
            + "." + nn));
      }
    }
    return new FillSources(defaultAuthority, own);
  }

  /** Adds {@code authority} unless it is absent or not a host; whether it is the cluster's now. */
  private static boolean add(Map<String, String> own, String authority) {
    String n = normalize(authority);
    if (n == null) {
      return false;
    }
    own.putIfAbsent(n, authority);
    return true;
  }

  /**
   * {@code host:port} in lower case, with the NameNode's default port when none is given; null
   * for an authority that is absent, empty or names a user.
   */
  static String normalize(String authority) {
    if (authority == null || authority.isEmpty() || authority.contains("@")) {
      return null;
    }
    String a = authority.toLowerCase(Locale.ROOT);
    Matcher m = HOST_PORT.matcher(a);
    if (m.matches() && !m.group(1).endsWith(":")) {
      return m.group(1) + ":" + Integer.parseInt(m.group(2));
    }
    return a + ":" + HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT;
  }

  /**
   * {@code path} as an {@code hdfs://} URI with the cluster's authority as configured, when it lies
   * on the cluster's own file system; null when it names another scheme or authority, or when it
   * cannot be parsed.
   */
  public URI resolve(String path) {
    URI uri;
    try {
      uri = new Path(path).toUri();
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (uri.getScheme() != null && !HDFS.equalsIgnoreCase(uri.getScheme())) {
      return null;
    }
    String authority;
    if (uri.getAuthority() == null) {
      authority = defaultAuthority;
    } else {
      // "//host/x" names an authority without saying which file system it is.
      authority = uri.getScheme() == null ? null : authorities.get(normalize(uri.getAuthority()));
    }
    if (authority == null) {
      return null;
    }
    String p = uri.getPath();
    return new Path(HDFS, authority, p.startsWith("/") ? p : "/" + p).toUri();
  }

  /** Whether {@code uri} names an {@code hdfs://} authority of the cluster's own. */
  public boolean isOwn(URI uri) {
    return HDFS.equalsIgnoreCase(uri.getScheme()) && uri.getAuthority() != null
        && authorities.containsKey(normalize(uri.getAuthority()));
  }

  /** The cluster's NameNode authorities as configured, for messages; empty: no HDFS at all. */
  public Collection<String> authorities() {
    return authorities.values();
  }
}
