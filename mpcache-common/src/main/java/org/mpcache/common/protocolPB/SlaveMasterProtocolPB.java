package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.common.proto.SlaveMasterProtos;

/**
 * The Hadoop RPC protocol for slave to master: registration, heartbeats, block and hit reports, replace requests, served with {@code ProtobufRpcEngine2} so that Hadoop's SASL
 * authentication and service-level authorization apply to it.
 */
@ProtocolInfo(protocolName = "org.mpcache.SlaveMasterProtocol", protocolVersion = 1)
public interface SlaveMasterProtocolPB extends SlaveMasterProtos.SlaveMasterService.BlockingInterface {
}
