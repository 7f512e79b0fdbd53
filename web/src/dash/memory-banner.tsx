/**
 * Shown on every dashboard page while Coffer keeps its data in process memory (GET /api/auth/session names the
 * persistence): nobody should learn at the first restart that their accounts and files were never kept.
 */
export function MemoryBanner() {
  return (
    <aside class="memory-banner" aria-label="Data is not kept">
      <p>
        <strong>Nothing here is kept.</strong> This Coffer holds everything in memory: every account, file, link and
        token is lost when it stops or restarts.
      </p>
      <p>
        To keep data, start Coffer with <code>MONGODB_URI</code> set to a MongoDB, or with{' '}
        <code>MONGOMS_SYSTEM_BINARY</code> set to a <code>mongod</code> binary, or on a machine that can download one
        (see “Persistence at start” in the README).
      </p>
    </aside>
  );
}
