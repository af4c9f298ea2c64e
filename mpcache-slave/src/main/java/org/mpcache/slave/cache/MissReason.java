package org.mpcache.slave.cache;

/**
 * Why a lookup answered a miss without queueing a fill, or why a fill's admission came to
 * nothing; the text is the lookup's {@code missReason}, a detail filling its {@code %s}.
 */
public enum MissReason {
  NOT_CACHED("not cached"),
  BEING_FILLED("being filled"),
  LARGER_THAN_INPUT_CACHE("larger than the Input Cache"),
  FILLED_BY_SLAVE("filled by the slave"),
  SLAVE_FILL_QUEUE_FULL("slave fill queue full"),
  /** The request, or the source it names, was refused. */
  REFUSED("refused: %s"),
  NOT_THE_FILES_BLOCK("not the block of %s"),
  FILE_UNCHECKED("cannot check the block's file at the NameNode: %s"),
  MASTER_UNREACHABLE("master unreachable: %s"),
  NOT_ADMITTED("not admitted: %s"),
  NO_SPACE("no space after eviction"),
  SSD_ERROR("cannot write to the SSD: %s");

  private final String text;

  MissReason(String text) {
    this.text = text;
  }

  /** The reason as a lookup's answer says it, with {@code detail} where it takes one. */
  public String describe(Object detail) {
    return String.format(text, detail);
  }
}
