package org.mpcache.slave.security;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.mpcache.common.BlockKey;
import org.mpcache.common.security.BlockKeySecretManager;

/**
 * Verifies HDFS block access tokens exactly as a DataNode does, with the NameNode's block keys
 * ({@link BlockKeySecretManager}): a token's block pool, block id, access mode, expiry and
 * signature. Used when {@code dfs.block.access.token.enable} is true, the same switch that makes
 * HDFS issue tokens. The NameNode of {@code fs.defaultFS} is consulted (one block pool). The same
 * keys authenticate the slave's RPC callers by their block tokens
 * ({@link #rpcSecretManager}).
 *
 * <p>Thread-safe, as the key holder is; a check never waits for another check's key fetch.
 */
public final class BlockTokenChecker implements BlockAccessChecker {
  private final BlockKeySecretManager keys;
  private final String blockPoolId;

  BlockTokenChecker(BlockKeySecretManager keys) {
    this.keys = keys;
    this.blockPoolId = keys.blockPoolId();
  }

  /** Connects to the default file system's NameNode and loads its current block keys. */
  public static BlockTokenChecker connect(Configuration conf) throws IOException {
    return new BlockTokenChecker(BlockKeySecretManager.connect(conf));
  }

  @Override
  public SecretManager<BlockTokenIdentifier> rpcSecretManager() {
    return keys;
  }

  @Override
  public void check(BlockKey block, String encodedToken) throws IOException {
    if (encodedToken == null || encodedToken.isEmpty()) {
      throw new AccessControlException("No block access token for " + block
          + ": this cluster requires one (dfs.block.access.token.enable=true)");
    }
    if (!block.getBlockPoolId().equals(blockPoolId)) {
      throw new AccessControlException("Block " + block + " is not in block pool " + blockPoolId
          + ", whose tokens this slave checks");
    }
    Token<BlockTokenIdentifier> token = new Token<>();
    BlockTokenIdentifier id;
    try {
      token.decodeFromUrlString(encodedToken);
      id = token.decodeIdentifier();
    } catch (IOException | RuntimeException e) {
      throw new AccessControlException("Malformed block access token for " + block + ": "
          + e.getMessage());
    }
    if (id == null) {
      throw new AccessControlException("Block access token for " + block + " has no identifier");
    }
    ExtendedBlock b = new ExtendedBlock(block.getBlockPoolId(), block.getBlockId(), 0,
        block.getGenerationStamp());
    try {
      keys.checkAccess(token, id, b);
    } catch (SecretManager.InvalidToken e) {
      throw new AccessControlException("Block access token rejected for " + block + ": "
          + e.getMessage());
    }
  }
}
