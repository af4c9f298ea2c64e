package org.mpcache.slave.security;

import java.io.IOException;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.security.token.SecretManager;
import org.mpcache.common.BlockKey;

/**
 * Decides whether a client may learn about and read a cached block. A slave serves a block only
 * to a client that HDFS authorized to read it: the evidence is the block access token the
 * NameNode issued with the block's location. Implementations are thread-safe.
 */
public interface BlockAccessChecker {

  /**
   * @param encodedToken the client's block token, URL-safe encoded; empty when it has none
   * @throws org.apache.hadoop.security.AccessControlException when access is denied
   * @throws IOException when the decision cannot be made (then access is denied too)
   */
  void check(BlockKey block, String encodedToken) throws IOException;

  /**
   * The secret manager the slave's client RPC server authenticates callers with by their block
   * tokens (tasks hold no Kerberos ticket), or null when HDFS issues no tokens.
   */
  default SecretManager<BlockTokenIdentifier> rpcSecretManager() {
    return null;
  }

  /**
   * The checker for a cluster whose HDFS does not issue block tokens: HDFS then lets any client
   * read any block from a DataNode, and the slave grants no less and no more.
   */
  static BlockAccessChecker open() {
    return (block, token) -> { };
  }
}
