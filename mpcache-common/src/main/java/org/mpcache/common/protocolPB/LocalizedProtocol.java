package org.mpcache.common.protocolPB;

import java.io.IOException;
import java.util.Collection;

/**
 * What a node's map and reduce tasks and its NodeManager ask of the mpCache slave beside them: room
 * in the SSD Localized Cache for map spills, map outputs and reduce-side merges, and the start and
 * end of the containers and applications that hold it. The NodeManager's calls
 * ({@link #containerStarted}, {@link #containerFinished}, {@link #applicationFinished},
 * {@link #runningOnNode}) are accepted from the NodeManager's user only; a task's calls only for a container the NodeManager
 * started for that application, from a caller authenticated as the container's user. A grant
 * lasts until its container finishes, except the bytes an attempt reports as retained (its final
 * map output, which the ShuffleHandler serves until the application ends); a finish the
 * NodeManager's notice of which was lost is caught up with at its next {@link #runningOnNode}. Implementations are
 * thread-safe.
 */
public interface LocalizedProtocol {

  /**
   * Asks for room for a file of about {@code bytes} bytes (the caller's estimate, which should err
   * high). Denial is an ordinary outcome: the caller then writes to its HDD dirs. {@code job}
   * describes the application for the master's Dynamic Space Manager.
   */
  LocalizedGrant requestSpace(String applicationId, String containerId, String attemptId,
      long bytes, LocalizedJob job) throws IOException;

  /** {@link #requestSpace(String, String, String, long, LocalizedJob)} for an undescribed job. */
  default LocalizedGrant requestSpace(String applicationId, String containerId, String attemptId,
      long bytes) throws IOException {
    return requestSpace(applicationId, containerId, attemptId, bytes, LocalizedJob.UNKNOWN);
  }

  /**
   * Declares the bytes an attempt leaves in an SSD directory after its container ends; its grants in
   * that directory shrink or grow to exactly that, and its grants elsewhere end with the container.
   */
  void reportRetained(String applicationId, String containerId, String attemptId, String dir,
      long bytes) throws IOException;

  /**
   * Gives back {@code bytes} of an attempt's grant in an SSD directory before its container ends:
   * what a file's estimate exceeded the bytes written to it, or a file the attempt deleted. At most
   * the grant there beyond the attempt's retained bytes is given back.
   */
  void returnSpace(String applicationId, String containerId, String attemptId, String dir,
      long bytes) throws IOException;

  /**
   * The NodeManager started container {@code containerId} of application {@code applicationId}
   * for {@code user}: from now until it finishes, callers authenticated as {@code user} may ask
   * for room for it.
   */
  void containerStarted(String containerId, String applicationId, String user)
      throws IOException;

  /** A container stopped: the grants of its attempts end, except retained bytes. */
  void containerFinished(String containerId) throws IOException;

  /** An application finished on this node: all its grants end. */
  void applicationFinished(String applicationId) throws IOException;

  /**
   * The NodeManager's view of this node: the applications and containers it runs now. Every
   * other container ends as at {@link #containerFinished} and every other application as at
   * {@link #applicationFinished}, so that a finish whose notice never arrived (a lost call, a
   * NodeManager restarted) holds its grants only until the next report.
   */
  void runningOnNode(Collection<String> applicationIds, Collection<String> containerIds)
      throws IOException;
}
