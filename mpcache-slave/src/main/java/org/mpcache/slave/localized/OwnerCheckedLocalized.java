package org.mpcache.slave.localized;

import java.io.IOException;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Supplier;
import org.mpcache.common.protocolPB.LocalizedGrant;
import org.mpcache.common.protocolPB.LocalizedJob;
import org.mpcache.common.protocolPB.LocalizedProtocol;

/**
 * The Localized protocol as the slave serves it: every call is checked against the
 * {@link LocalizedOwners} rules for the authenticated caller before the {@link LocalizedCache}
 * sees it, so a refused call reserves, releases and reclaims nothing. The caller is the RPC
 * call's user ({@code Server.getRemoteUser()} in the service; any supplier in tests).
 *
 * <p>A task's call checked just before the NodeManager finishes its container may still reach the
 * cache after the container's grants were released; such a grant ends with its application.
 * Thread-safe, as the rules and the cache are; no lock is held across the two.
 */
final class OwnerCheckedLocalized implements LocalizedProtocol {
  private final LocalizedCache cache;
  private final LocalizedOwners owners;
  private final Supplier<String> caller;

  /** @param caller the current call's authenticated short user name, null when unknown */
  OwnerCheckedLocalized(LocalizedCache cache, LocalizedOwners owners, Supplier<String> caller) {
    this.cache = Objects.requireNonNull(cache, "cache");
    this.owners = Objects.requireNonNull(owners, "owners");
    this.caller = Objects.requireNonNull(caller, "caller");
  }

  @Override
  public LocalizedGrant requestSpace(String applicationId, String containerId, String attemptId,
      long bytes, LocalizedJob job) throws IOException {
    owners.checkTaskCall(caller.get(), "requestSpace", applicationId, containerId);
    return cache.requestSpace(applicationId, containerId, attemptId, bytes, job);
  }

  @Override
  public void reportRetained(String applicationId, String containerId, String attemptId,
      String dir, long bytes) throws IOException {
    owners.checkTaskCall(caller.get(), "reportRetained", applicationId, containerId);
    cache.reportRetained(applicationId, containerId, attemptId, dir, bytes);
  }

  @Override
  public void returnSpace(String applicationId, String containerId, String attemptId,
      String dir, long bytes) throws IOException {
    owners.checkTaskCall(caller.get(), "returnSpace", applicationId, containerId);
    cache.returnSpace(applicationId, containerId, attemptId, dir, bytes);
  }

  @Override
  public void containerStarted(String containerId, String applicationId, String user)
      throws IOException {
    owners.containerStarted(caller.get(), containerId, applicationId, user);
  }

  @Override
  public void containerFinished(String containerId) throws IOException {
    owners.containerFinished(caller.get(), containerId);
    cache.containerFinished(containerId);
  }

  @Override
  public void applicationFinished(String applicationId) throws IOException {
    owners.applicationFinished(caller.get(), applicationId);
    cache.applicationFinished(applicationId);
  }

  @Override
  public void runningOnNode(Collection<String> applicationIds, Collection<String> containerIds)
      throws IOException {
    owners.runningOnNode(caller.get(), applicationIds, containerIds);
    cache.runningOnNode(applicationIds, containerIds);
  }
}
