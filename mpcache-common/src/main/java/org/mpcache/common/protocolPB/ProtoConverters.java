package org.mpcache.common.protocolPB;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.mpcache.common.BlockKey;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/**
 * Converts between mpCache's Java types and their protobuf messages. A message that violates a
 * type's invariants is rejected with an {@link IllegalArgumentException} naming the bad field,
 * which the RPC layer returns to the caller. Stateless and thread-safe.
 */
public final class ProtoConverters {

  private ProtoConverters() {
  }

  public static BlockKeyProto toProto(BlockKey key) {
    return BlockKeyProto.newBuilder().setBlockPoolId(key.getBlockPoolId())
        .setBlockId(key.getBlockId()).setGenerationStamp(key.getGenerationStamp()).build();
  }

  public static BlockKey fromProto(BlockKeyProto proto) {
    return new BlockKey(proto.getBlockPoolId(), proto.getBlockId(), proto.getGenerationStamp());
  }

  public static List<BlockKeyProto> toProtos(Collection<BlockKey> keys) {
    List<BlockKeyProto> out = new ArrayList<>(keys.size());
    for (BlockKey k : keys) {
      out.add(toProto(k));
    }
    return out;
  }

  public static List<BlockKey> fromProtos(Collection<BlockKeyProto> protos) {
    List<BlockKey> out = new ArrayList<>(protos.size());
    for (BlockKeyProto p : protos) {
      out.add(fromProto(p));
    }
    return out;
  }
}
