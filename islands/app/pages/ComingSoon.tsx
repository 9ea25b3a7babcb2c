/** Signed-in pages whose issues have not landed yet say so plainly. */
export default function ComingSoon() {
  return (
    <section>
      <h1>My Account</h1>
      <p>Your devices, quotes and orders after you sign in.</p>
      <p className="muted">This page is coming soon.</p>
    </section>
  );
}
