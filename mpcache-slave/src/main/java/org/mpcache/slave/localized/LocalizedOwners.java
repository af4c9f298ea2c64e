package org.mpcache.slave.localized;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.concurrent.GuardedBy;
import org.apache.hadoop.security.AccessControlException;

/**
 * Who may use the Localized Cache for which container: the ownership rules of the Localized
 * protocol, given the authenticated caller's short user name.
 * <ul>
 *   <li>The NodeManager's users ({@link LocalizedConfigKeys#NODEMANAGER_USERS_KEY}, and the
 *       slave's own user) may make every call. Only they may say that a container started or
 *       finished, or that an application finished.</li>
 *   <li>Anyone else may ask for room ({@code requestSpace}) or report retained bytes
 *       ({@code reportRetained}) only for a container the NodeManager registered as started and
 *       not yet finished, naming the application it registered the container under, and only as
 *       the user it registered the container for.</li>
 * </ul>
 * A refusal is an {@link AccessControlException} naming the call, the caller, the container or
 * application, and the reason; a refused call changes nothing. The rules know nothing of grants:
 * a caller's attempt ids are bound to its container by the {@link LocalizedCache}.
 *
 * <p>Pure: no I/O, no clock. Thread-safe: this object's monitor guards the registered containers
 * and is never held while anything else is called.
 */
public final class LocalizedOwners {
  private final Set<String> nodeManagerUsers;
  /** By container id: the containers the NodeManager started and has not finished. */
  @GuardedBy("this")
  private final Map<String, Owner> containers = new HashMap<>();

  /** @param nodeManagerUsers the short names of the users whose calls are the NodeManager's */
  public LocalizedOwners(Collection<String> nodeManagerUsers) {
    this.nodeManagerUsers = Set.copyOf(nodeManagerUsers);
  }

  /** Registers a container the NodeManager started for {@code user}. */
  public synchronized void containerStarted(String caller, String containerId,
      String applicationId, String user) throws AccessControlException {
    requireNodeManager(caller, "containerStarted", "container " + containerId);
    containers.put(containerId, new Owner(applicationId, user));
  }

  /**
   * Checks that {@code caller} may make task call {@code call} ({@code requestSpace},
   * {@code reportRetained}) for {@code containerId} of {@code applicationId}.
   */
  public synchronized void checkTaskCall(String caller, String call, String applicationId,
      String containerId) throws AccessControlException {
    if (isNodeManager(caller)) {
      return;
    }
    Owner owner = containers.get(containerId);
    String reason;
    if (owner == null) {
      reason = "the NodeManager has not registered that container as running on this node";
    } else if (!owner.user.equals(caller)) {
      reason = "the container does not run for user " + caller;
    } else if (!owner.applicationId.equals(applicationId)) {
      reason = "the container belongs to " + owner.applicationId;
    } else {
      return;
    }
    throw new AccessControlException("Refused " + call + " by user " + caller + " for container "
        + containerId + " of " + applicationId + ": " + reason);
  }

  /** Forgets a container the NodeManager stopped. */
  public synchronized void containerFinished(String caller, String containerId)
      throws AccessControlException {
    requireNodeManager(caller, "containerFinished", "container " + containerId);
    containers.remove(containerId);
  }

  /** Forgets the containers of an application the NodeManager finished. */
  public synchronized void applicationFinished(String caller, String applicationId)
      throws AccessControlException {
    requireNodeManager(caller, "applicationFinished", applicationId);
    containers.values().removeIf(o -> o.applicationId.equals(applicationId));
  }

  /**
   * Forgets the containers the NodeManager no longer runs: those not in {@code containerIds}, or
   * of an application not in {@code applicationIds}.
   */
  public synchronized void runningOnNode(String caller, Collection<String> applicationIds,
      Collection<String> containerIds) throws AccessControlException {
    requireNodeManager(caller, "runningOnNode", "this node");
    Set<String> apps = Set.copyOf(applicationIds);
    Set<String> running = Set.copyOf(containerIds);
    containers.entrySet().removeIf(e -> !running.contains(e.getKey())
        || !apps.contains(e.getValue().applicationId));
  }

  private boolean isNodeManager(String caller) {
    return caller != null && nodeManagerUsers.contains(caller);
  }

  private void requireNodeManager(String caller, String call, String subject)
      throws AccessControlException {
    if (!isNodeManager(caller)) {
      throw new AccessControlException("Refused " + call + " by user " + caller + " for "
          + subject + ": only the NodeManager may call it (users "
          + String.join(",", new TreeSet<>(nodeManagerUsers)) + ": "
          + LocalizedConfigKeys.NODEMANAGER_USERS_KEY + " and the slave's own user)");
    }
  }

  /** A registered container's application and user. */
  private record Owner(String applicationId, String user) {
  }
}
