package org.mpcache.yarn;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.mapreduce.JobSubmissionFiles;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who a task calls the slave's Localized Cache as. Without Kerberos, or with a Kerberos ticket,
 * the current user. A task on a Kerberized cluster holds no ticket, only its job's delegation
 * tokens; it then calls as its user holding an HDFS block token of one of its job's own files
 * ({@code job.splitmetainfo} in the staging directory, {@code mapreduce.job.dir}, which only the
 * job's user may read), which the NameNode issues in that user's name and the slave verifies with
 * the NameNode's block keys (SASL DIGEST-MD5), as the client protocols accept a reader's block
 * tokens. The slave then knows the caller's user, and lets it use only containers the NodeManager
 * started for that user. Stateless; thread-safe.
 */
public final class LocalizedTaskIdentity {

  private LocalizedTaskIdentity() {
  }

  /**
   * The user to call the Localized Cache as, from the job's configuration {@code conf}.
   *
   * @throws IOException when a task without a ticket cannot get a block token of its job's files
   *     (the task then writes its localized data to its HDDs)
   */
  public static UserGroupInformation of(Configuration conf) throws IOException {
    UserGroupInformation me = UserGroupInformation.getCurrentUser();
    if (!UserGroupInformation.isSecurityEnabled() || me.hasKerberosCredentials()) {
      return me;
    }
    String jobDir = conf.get(MRJobConfig.MAPREDUCE_JOB_DIR);
    if (jobDir == null) {
      throw new IOException(MRJobConfig.MAPREDUCE_JOB_DIR + " is not set: a task without a"
          + " Kerberos ticket authenticates to the slave with a block token of its job's files");
    }
    Path splits = JobSubmissionFiles.getJobSplitMetaFile(new Path(jobDir));
    LocatedBlocks blocks;
    // A new instance: tasks may read HDFS through an uncached FileSystem, which nobody would close.
    try (FileSystem fs = FileSystem.newInstance(splits.toUri(), conf)) {
      if (!(fs instanceof DistributedFileSystem dfs)) {
        throw new IOException(MRJobConfig.MAPREDUCE_JOB_DIR + " " + jobDir + " is not in HDFS:"
            + " no block token to authenticate to the slave with");
      }
      blocks = dfs.getClient().getLocatedBlocks(fs.makeQualified(splits).toUri().getPath(), 0,
          1);
    }
    if (blocks == null || blocks.locatedBlockCount() == 0) {
      throw new IOException(splits + " has no block: no block token to authenticate to the slave"
          + " with");
    }
    UserGroupInformation caller = UserGroupInformation.createRemoteUser(me.getShortUserName());
    caller.addToken(blocks.get(0).getBlockToken());
    return caller;
  }
}
