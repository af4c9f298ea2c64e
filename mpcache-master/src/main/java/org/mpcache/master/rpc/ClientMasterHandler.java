package org.mpcache.master.rpc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.ClientMasterProtos.BlockHostsProto;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.CachedHostsResponseProto;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesResponseProto;
import org.mpcache.common.proto.MpCacheProtos.SlaveInfoProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.common.protocolPB.RequestChecks;
import org.mpcache.common.protocolPB.RequestRefusedException;
import org.mpcache.master.arbitrator.ReplaceArbitrator;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * Serves the client-to-master protocol: the directory of live slaves a reading client chooses
 * from (decommissioning slaves are left out, so clients stop reading from them), and the hosts
 * whose slave stores each of a file's blocks, which a job's split computation places map tasks by.
 * The second is answered from the Replace Arbitrator's placement index alone, never by asking the
 * NameNode: the caller names the blocks (it has them from the NameNode, with its own permissions)
 * and learns only hosts.
 *
 * <p>Thread-safe: it holds no state of its own; it takes the arbitrator's lock, then the registry's
 * monitor, one after the other, never both.
 */
public final class ClientMasterHandler implements ClientMasterProtocolPB {
  private final SlaveRegistry registry;
  private final ReplaceArbitrator arbitrator;

  public ClientMasterHandler(SlaveRegistry registry, ReplaceArbitrator arbitrator) {
    this.registry = registry;
    this.arbitrator = arbitrator;
  }

  @Override
  public GetSlavesResponseProto getSlaves(RpcController c, GetSlavesRequestProto req) {
    return GetSlavesResponseProto.newBuilder().addAllSlaves(registry.servingSlaves()).build();
  }

  /**
   * Per requested block, the hosts of the serving slaves whose copy is readable and stays; a
   * request naming more than {@link RequestChecks#MAX_CACHED_HOSTS_BLOCKS} blocks, or an invalid
   * block key, is refused.
   */
  @Override
  public CachedHostsResponseProto cachedHosts(RpcController c, CachedHostsRequestProto req)
      throws ServiceException {
    List<BlockKey> blocks = new ArrayList<>(req.getBlocksCount());
    try {
      RequestChecks.uint32("blocks.count", req.getBlocksCount(), 0,
          RequestChecks.MAX_CACHED_HOSTS_BLOCKS);
      for (int i = 0; i < req.getBlocksCount(); i++) {
        blocks.add(RequestChecks.blockKey("blocks[" + i + "]", req.getBlocks(i)));
      }
    } catch (RequestRefusedException e) {
      throw new ServiceException(e);
    }
    List<Set<String>> holders = arbitrator.readableOn(blocks);
    Map<String, String> hostOf = new HashMap<>();
    for (SlaveInfoProto s : registry.servingSlaves()) {
      hostOf.put(s.getSlaveId(), s.getHost());
    }
    CachedHostsResponseProto.Builder out = CachedHostsResponseProto.newBuilder();
    for (Set<String> slaves : holders) {
      BlockHostsProto.Builder b = out.addBlocksBuilder();
      for (String id : slaves) {
        String host = hostOf.get(id);
        if (host != null && !b.getHostsList().contains(host)) {
          b.addHosts(host);
        }
      }
    }
    return out.build();
  }
}
