package org.mpcache.common.service;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.authorize.PolicyProvider;
import org.mpcache.common.MpCacheConfigKeys;

/**
 * Hadoop's service-level authorization for mpCache's RPC servers: when
 * {@code hadoop.security.authorization} is true, a server checks every connection against the
 * ACL its {@link PolicyProvider} names for the protocol ({@code security.mpcache.*.protocol.acl}),
 * read from the daemon's configuration with {@code mpcache-policy.xml} on top (as HDFS's daemons
 * read {@code hadoop-policy.xml}). An ACL no file sets is {@code *}. Stateless.
 */
public final class ServiceAcls {

  private ServiceAcls() {
  }

  /** Whether {@code hadoop.security.authorization} turns service-level authorization on. */
  public static boolean enabled(Configuration conf) {
    return conf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false);
  }

  /**
   * (Re)loads the ACLs of {@code provider}'s protocols into {@code server} from {@code conf} and
   * the policy file, which is read again on every call; does nothing when authorization is off
   * (the server then checks no ACL).
   */
  public static void load(Server server, Configuration conf, PolicyProvider provider) {
    if (!enabled(conf)) {
      return;
    }
    Configuration policy = new Configuration(conf);
    policy.addResource(MpCacheConfigKeys.POLICY_RESOURCE);
    server.refreshServiceAclWithLoadedConfiguration(policy, provider);
  }
}
