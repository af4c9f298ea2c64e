package org.mpcache.master.rpc;

import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesRequestProto;
import org.mpcache.common.proto.ClientMasterProtos.GetSlavesResponseProto;
import org.mpcache.common.protocolPB.ClientMasterProtocolPB;
import org.mpcache.master.registry.SlaveRegistry;

/**
 * Serves the client-to-master protocol: the directory of live slaves a reading client chooses
 * from (decommissioning slaves are left out, so clients stop reading from them). Thread-safe: it holds no state of its own.
 */
public final class ClientMasterHandler implements ClientMasterProtocolPB {
  private final SlaveRegistry registry;

  public ClientMasterHandler(SlaveRegistry registry) {
    this.registry = registry;
  }

  @Override
  public GetSlavesResponseProto getSlaves(RpcController c, GetSlavesRequestProto req) {
    return GetSlavesResponseProto.newBuilder().addAllSlaves(registry.servingSlaves()).build();
  }
}
