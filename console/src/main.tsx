import { render } from 'preact'
import { resume } from './api.ts'
import { App } from './app.tsx'
import './styles.css'

// A stored refresh token becomes a session before the first page asks for one.
void resume()
render(<App />, document.getElementById('app') as HTMLElement)
