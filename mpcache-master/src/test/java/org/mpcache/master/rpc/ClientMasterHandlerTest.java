package org.mpcache.master.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsRequestProto;
import org.mpcache.common.protocolPB.ProtoConverters;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.master.arbitrator.CachePolicies;
import org.mpcache.master.arbitrator.PolicyParameters;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;
import org.mpcache.master.status.ArbitratorStats;

/**
 * The client-master protocol's bounds: a cached-hosts request names at most
 * {@link RequestChecks#MAX_CACHED_HOSTS_BLOCKS} blocks, looked up under the arbitrator's lock; a
 * larger one is refused, naming the field, before the lock is taken.
 */
class ClientMasterHandlerTest {
  private ClientMasterHandler handler;

  @BeforeEach
  void setUp() {
    SlaveRegistry registry = new SlaveRegistry(() -> 0L, 60_000);
    ReplaceArbitrator arbitrator = new ReplaceArbitrator(
        p -> CachePolicies.create(CachePolicies.MPCACHE, PolicyParameters.defaults(), p), registry,
        100, new ArbitratorStats(), () -> 1_000L);
    handler = new ClientMasterHandler(registry, arbitrator);
  }

  private static CachedHostsRequestProto request(int blocks) {
    CachedHostsRequestProto.Builder r = CachedHostsRequestProto.newBuilder();
    for (int i = 0; i < blocks; i++) {
      r.addBlocks(ProtoConverters.toProto(new BlockKey("BP-1", i + 1, 1)));
    }
    return r.build();
  }

  @Test
  void cachedHosts_asManyBlocksAsTheBound_answersEach() throws Exception {
    assertEquals(RequestChecks.MAX_CACHED_HOSTS_BLOCKS, handler.cachedHosts(null,
        request(RequestChecks.MAX_CACHED_HOSTS_BLOCKS)).getBlocksCount());
  }

  @Test
  void cachedHosts_moreBlocksThanOneCallMayLookUpUnderTheLock_refusedNamingTheField() {
    // 4,096 blocks is the bound: a few milliseconds under the arbitrator's lock.
    ServiceException e = assertThrows(ServiceException.class, () -> handler.cachedHosts(null,
        request(4_097)));
    assertInstanceOf(RequestRefusedException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("blocks.count"), e.getCause().getMessage());
  }
}
