package org.mpcache.master.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.mpcache.common.ConfigChecks;
import org.mpcache.common.proto.AdminProtos.ConfigChangeProto;
import org.mpcache.common.proto.AdminProtos.RefreshResponseProto;
import org.mpcache.master.MasterConfigKeys;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.control.AdmissionFilter;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.security.AdminAcls;

/**
 * Reloads the master's reloadable configuration ({@code mpcache admin refresh}): it re-reads the
 * configuration files, validates the reloadable keys, then applies them all or none. The
 * reloadable keys are {@link #RELOADABLE}; every other key needs a restart. The exclude file is
 * read again on every refresh, as HDFS's {@code dfs.hosts.exclude} is by {@code refreshNodes}; the
 * admin ACLs ({@link AdminAcls}) and the admission filters ({@link AdmissionFilter}) are
 * reloadable keys too. A
 * refresh also reloads the service ACLs ({@code security.mpcache.*.protocol.acl} and
 * {@code mpcache-policy.xml}), as HDFS's {@code refreshServiceAcl} does, once the reloadable keys
 * are applied. It also asks every slave with an SSD directory out of service to put it back in
 * service at its next heartbeat, as a DataNode's failed volumes return when it is told to
 * reconfigure.
 *
 * <p>Thread-safe: refreshes are serialized on this object, whose lock is taken before the
 * arbitrator's and the registry's (it calls into both, they never call back); the admin ACLs
 * take no lock.
 */
public final class MasterRefresher {
  /** The keys a refresh applies. */
  public static final List<String> RELOADABLE = List.of(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY,
      MasterConfigKeys.STATUS_MAX_DATASETS_KEY, MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY,
      MasterConfigKeys.ADMIN_ACL_KEY, MasterConfigKeys.ADMIN_READ_ACL_KEY,
      MasterConfigKeys.ADMISSION_INCLUDE_KEY, MasterConfigKeys.ADMISSION_EXCLUDE_KEY);

  private final Configuration startConf;
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;
  private final long heartbeatMs;
  private final Consumer<Configuration> serviceAcls;
  private final AdminAcls adminAcls;
  private Map<String, String> current;

  /**
   * @param startConf the configuration the master started with; a refresh re-reads its resources
   * @param heartbeatMs the heartbeat interval (not reloadable; the expiry must stay above it)
   * @param serviceAcls reloads the RPC server's service ACLs from a re-read configuration
   * @param adminAcls the admin operations' ACLs, reloaded with the other reloadable keys
   */
  public MasterRefresher(Configuration startConf, SlaveRegistry registry,
      ReplaceArbitrator arbitrator, long heartbeatMs, Consumer<Configuration> serviceAcls,
      AdminAcls adminAcls) {
    this.startConf = new Configuration(startConf);
    this.registry = registry;
    this.arbitrator = arbitrator;
    this.heartbeatMs = heartbeatMs;
    this.serviceAcls = serviceAcls;
    this.adminAcls = adminAcls;
  }

  /**
   * Applies the configuration the master starts with.
   *
   * @throws IllegalArgumentException when a reloadable key is invalid, naming it
   * @throws IOException when the exclude file cannot be read
   */
  public synchronized void start() throws IOException {
    apply(startConf);
  }

  /**
   * Re-reads the configuration files and applies the reloadable keys.
   *
   * @throws IllegalArgumentException when a reloadable key is invalid (nothing is applied)
   * @throws IOException when the exclude file cannot be read (nothing is applied)
   */
  public synchronized RefreshResponseProto refresh() throws IOException {
    Configuration fresh = new Configuration(startConf);
    fresh.reloadConfiguration();
    Map<String, String> before = current;
    apply(fresh);
    serviceAcls.accept(fresh);
    RefreshResponseProto.Builder r = RefreshResponseProto.newBuilder()
        .addAllReloadableKeys(RELOADABLE).addAllDecommissioned(registry.decommissioning())
        .addAllVolumesReturned(registry.returnVolumes());
    for (String k : RELOADABLE) {
      if (!before.get(k).equals(current.get(k))) {
        r.addChanged(ConfigChangeProto.newBuilder().setKey(k).setOldValue(before.get(k))
            .setNewValue(current.get(k)));
      }
    }
    return r.build();
  }

  private void apply(Configuration conf) throws IOException {
    long expiry = ConfigChecks.longAtLeast(conf, MasterConfigKeys.SLAVE_EXPIRY_MS_KEY,
        MasterConfigKeys.SLAVE_EXPIRY_MS_DEFAULT, heartbeatMs + 1);
    int maxDatasets = ConfigChecks.intAtLeast(conf, MasterConfigKeys.STATUS_MAX_DATASETS_KEY,
        MasterConfigKeys.STATUS_MAX_DATASETS_DEFAULT, 1);
    String excludeFile = conf.getTrimmed(MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY,
        MasterConfigKeys.SLAVES_EXCLUDE_FILE_DEFAULT);
    Set<String> excluded = readExcludes(excludeFile);
    AdmissionFilter filter = new AdmissionFilter(
        globs(conf, MasterConfigKeys.ADMISSION_INCLUDE_KEY),
        globs(conf, MasterConfigKeys.ADMISSION_EXCLUDE_KEY));
    registry.setExpiryMs(expiry);
    arbitrator.setAdmissionFilter(filter);
    arbitrator.setMaxDatasets(maxDatasets);
    arbitrator.exclude(excluded);
    adminAcls.reload(conf);
    Map<String, String> now = new LinkedHashMap<>();
    now.put(MasterConfigKeys.SLAVE_EXPIRY_MS_KEY, Long.toString(expiry));
    now.put(MasterConfigKeys.STATUS_MAX_DATASETS_KEY, Integer.toString(maxDatasets));
    now.put(MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY, excludeFile + (excludeFile.isEmpty() ? ""
        : " " + excluded));
    now.put(MasterConfigKeys.ADMIN_ACL_KEY, adminAcls.operatorAcl());
    now.put(MasterConfigKeys.ADMIN_READ_ACL_KEY, adminAcls.readAcl());
    now.put(MasterConfigKeys.ADMISSION_INCLUDE_KEY, String.join(",", filter.include()));
    now.put(MasterConfigKeys.ADMISSION_EXCLUDE_KEY, String.join(",", filter.exclude()));
    current = now;
  }

  /**
   * The path globs of an admission filter key.
   *
   * @throws IllegalArgumentException naming the key when a glob is invalid
   */
  private static List<String> globs(Configuration conf, String key) {
    List<String> globs = new ArrayList<>(conf.getTrimmedStringCollection(key));
    try {
      new AdmissionFilter(globs, List.of());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": " + e.getMessage()
          + ". Give absolute path globs, comma-separated, or clear the key.", e);
    }
    return globs;
  }

  private static Set<String> readExcludes(String file) throws IOException {
    Set<String> out = new LinkedHashSet<>();
    if (file.isEmpty()) {
      return out;
    }
    try {
      for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
        int hash = line.indexOf('#');
        String entry = (hash >= 0 ? line.substring(0, hash) : line).trim();
        if (!entry.isEmpty()) {
          out.add(entry);
        }
      }
    } catch (IOException e) {
      throw new IOException("Cannot read " + MasterConfigKeys.SLAVES_EXCLUDE_FILE_KEY + "="
          + file + ": " + e + ". Fix the path or clear the key.", e);
    }
    return out;
  }
}
