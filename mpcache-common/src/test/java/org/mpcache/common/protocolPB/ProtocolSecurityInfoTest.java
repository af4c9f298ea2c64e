package org.mpcache.common.protocolPB;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSelector;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.token.TokenInfo;
import org.junit.jupiter.api.Test;
import org.mpcache.common.MpCacheConfigKeys;

/**
 * What Hadoop RPC's SASL layer learns about each mpCache protocol from the {@code SecurityInfo}
 * services on the classpath ({@link SecurityUtil#getKerberosInfo}, {@link SecurityUtil#getTokenInfo}):
 * every protocol names its server's principal key, and exactly the protocols tasks call accept
 * HDFS block tokens.
 */
class ProtocolSecurityInfoTest {
  private static final Map<Class<?>, String> PRINCIPALS = Map.of(
      ClientMasterProtocolPB.class, MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY,
      SlaveMasterProtocolPB.class, MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY,
      AdminProtocolPB.class, MpCacheConfigKeys.MASTER_KERBEROS_PRINCIPAL_KEY,
      ClientSlaveProtocolPB.class, MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY,
      LocalizedProtocolPB.class, MpCacheConfigKeys.SLAVE_KERBEROS_PRINCIPAL_KEY);

  @Test
  void getKerberosInfo_everyProtocolNamesItsServersPrincipalKey() {
    Configuration conf = new Configuration(false);
    PRINCIPALS.forEach((protocol, key) -> {
      KerberosInfo info = SecurityUtil.getKerberosInfo(protocol, conf);
      assertNotNull(info, protocol.getSimpleName());
      assertEquals(key, info.serverPrincipal(), protocol.getSimpleName());
    });
  }

  @Test
  void getTokenInfo_blockTokensOnTheProtocolsTasksCallOnly() {
    Configuration conf = new Configuration(false);
    for (Class<?> tasks : new Class<?>[] {ClientMasterProtocolPB.class,
        ClientSlaveProtocolPB.class, LocalizedProtocolPB.class}) {
      TokenInfo info = SecurityUtil.getTokenInfo(tasks, conf);
      assertNotNull(info, tasks.getSimpleName());
      assertEquals(BlockTokenSelector.class, info.value(), tasks.getSimpleName());
    }
    assertNull(SecurityUtil.getTokenInfo(SlaveMasterProtocolPB.class, conf));
    assertNull(SecurityUtil.getTokenInfo(AdminProtocolPB.class, conf));
  }
}
