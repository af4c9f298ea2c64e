package org.mpcache.common.protocolPB;

import org.apache.hadoop.ipc.ProtocolInfo;
import org.mpcache.common.proto.LocalizedProtos.LocalizedService;

/** The Hadoop RPC face of {@link LocalizedProtocol}: the generated protobuf service. */
@ProtocolInfo(protocolName = "org.mpcache.LocalizedProtocol", protocolVersion = 1)
public interface LocalizedProtocolPB extends LocalizedService.BlockingInterface {
}
